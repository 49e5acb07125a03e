import type { Sql } from "postgres";
import { pgInteger } from "../db/index.js";
import type { OpsRange } from "./range.js";

/**
 * The dunning funnel of the charges whose first attempt failed in the range: how many entered
 * dunning, how many were recovered at each retry (a charge paid at attempt n was recovered at
 * retry n − 1), how many ended as invoices (uncollectible), how many are still being retried or
 * wait for a person, and the recovery rate: recovered ÷ entered, the figure billers publish.
 * One range scan of charges_first_failed_idx, which holds every column it reads.
 */

export interface DunningFunnel {
  currency: string;
  entered: { count: number; amountMinor: number };
  recovered: { count: number; amountMinor: number };
  /** Index i: recovered at retry i + 1. */
  recoveredByRetry: { retry: number; count: number; amountMinor: number }[];
  invoiced: { count: number; amountMinor: number };
  inDunning: { count: number; amountMinor: number };
  held: { count: number };
  canceled: { count: number };
  /** recovered ÷ entered, 0–1; null when nothing entered dunning. */
  recoveryRate: number | null;
}

interface Row {
  status: string;
  attempt_count: number;
  n: string;
  amount: string;
}

export async function dunningFunnel(sql: Sql, range: OpsRange, currency: string): Promise<DunningFunnel> {
  const rows = await sql<Row[]>`
    select status::text, attempt_count, count(*)::text as n, sum(amount_minor)::text as amount
    from charges
    where first_failed_at is not null
      and first_failed_at >= ${range.from.toUTC().toISO()}::timestamptz
      and first_failed_at < ${range.to.toUTC().toISO()}::timestamptz
      and currency = ${currency}
    group by 1, 2`;
  const tally = () => ({ count: 0, amountMinor: 0 });
  const funnel: DunningFunnel = {
    currency,
    entered: tally(),
    recovered: tally(),
    recoveredByRetry: [],
    invoiced: tally(),
    inDunning: tally(),
    held: { count: 0 },
    canceled: { count: 0 },
    recoveryRate: null,
  };
  const byRetry = new Map<number, { count: number; amountMinor: number }>();
  for (const row of rows) {
    const count = pgInteger(row.n);
    const amountMinor = pgInteger(row.amount);
    funnel.entered.count += count;
    funnel.entered.amountMinor += amountMinor;
    const add = (into: { count: number; amountMinor?: number }) => {
      into.count += count;
      if (into.amountMinor !== undefined) into.amountMinor += amountMinor;
    };
    switch (row.status) {
      case "paid": {
        add(funnel.recovered);
        const retry = Math.max(1, row.attempt_count - 1);
        const slot = byRetry.get(retry) ?? tally();
        add(slot);
        byRetry.set(retry, slot);
        break;
      }
      case "uncollectible":
        add(funnel.invoiced);
        break;
      case "needs_review":
        add(funnel.held);
        break;
      case "canceled":
        add(funnel.canceled);
        break;
      default: // scheduled, processing, retrying: still being collected
        add(funnel.inDunning);
    }
  }
  const deepest = Math.max(0, ...byRetry.keys());
  for (let retry = 1; retry <= deepest; retry++) {
    funnel.recoveredByRetry.push({ retry, ...(byRetry.get(retry) ?? tally()) });
  }
  funnel.recoveryRate = funnel.entered.count === 0 ? null : funnel.recovered.count / funnel.entered.count;
  return funnel;
}
