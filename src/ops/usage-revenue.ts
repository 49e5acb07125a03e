import type { Sql } from "postgres";
import { pgInteger } from "../db/index.js";
import type { OpsRange } from "./range.js";

/**
 * Rule: usage revenue is the usage charges (kind usage: metered usage, billed by usage-billing/ on
 * charges of its own, apart from the period's) paid in the range, by paid_at, per currency, before
 * refunds. It is shown apart from MRR, which counts what recurs from the subscriptions themselves
 * and never reads charges, so usage is not in it; Collected (collections.ts) counts every paid
 * charge whatever its kind, so this figure is the usage part of Collected's payments.
 */

export interface UsageRevenue {
  /** Per currency, the most first. */
  paid: { currency: string; count: number; amountMinor: number }[];
}

export async function usageRevenue(sql: Sql, range: OpsRange): Promise<UsageRevenue> {
  // charges_usage_paid_at_idx holds these alone, index-only; its predicate is repeated word for word
  // so the planner can use it.
  const rows = await sql<{ currency: string; n: string; amount: string }[]>`
    select currency, count(*)::text as n, sum(amount_minor)::text as amount
    from charges
    where status = 'paid' and charge_kind_is_usage(kind)
      and paid_at >= ${range.from.toUTC().toISO()}::timestamptz and paid_at < ${range.to.toUTC().toISO()}::timestamptz
    group by currency
    order by sum(amount_minor) desc, currency`;
  return {
    paid: rows.map((row) => ({
      currency: row.currency,
      count: pgInteger(row.n),
      amountMinor: pgInteger(row.amount),
    })),
  };
}
