/**
 * What a scenario left, from the database and the simulator's ledger, to the minor unit. Rules:
 * - ledger paid = successful GetnewPayment collections not refunded; its total in minor units;
 * - a double charge = a period (one charge, named by the `chg_<charge id>_<n>` orderId) with more
 *   than one unrefunded collection in the ledger;
 * - a lost period = a seeded subscription whose period has neither a paid charge nor an open or
 *   held one (scheduled, processing, retrying, needs_review): money nobody will collect;
 * - condemned = what a systemic failure must never cause: subscriptions moved to unpaid, charges
 *   made uncollectible, invoices created.
 */
import { breakerState } from "../../src/breaker/index.js";
import { latePaymentReport } from "../../src/late-payments/index.js";
import { toMinor } from "../../src/money/index.js";
import { collections, readLedgerPayments } from "../bench/ledger.js";
import type { Harness } from "./harness.js";

export interface Measurement {
  readonly expected: number;
  readonly paidDb: number;
  readonly paidDbMinor: number;
  readonly paidLedger: number;
  readonly paidLedgerMinor: number;
  readonly doubleCharges: number;
  readonly duplicatesDetected: number;
  readonly duplicatesRefunded: number;
  readonly lost: number;
  readonly heldForReview: number;
  readonly unpaidSubscriptions: number;
  readonly uncollectible: number;
  readonly invoices: number;
  readonly breaker: string;
}

const ORDER_ID = /^chg_([0-9a-f-]{36})_\d+$/;

export async function measure(h: Harness): Promise<Measurement> {
  const collected = collections(await readLedgerPayments(h.sim.url)).filter((p) => !p.refunded);
  const perPeriod = new Map<string, number>();
  for (const payment of collected) {
    // A collection whose orderId is not ours is its own period: it can only be wrong.
    const period = ORDER_ID.exec(payment.order_id ?? "")?.[1] ?? payment.transaction_id;
    perPeriod.set(period, (perPeriod.get(period) ?? 0) + 1);
  }
  const [row] = await h.sql<Record<string, string>[]>`
    select
      (select count(*) from charges where status = 'paid') as paid,
      (select coalesce(sum(amount_minor), 0) from charges where status = 'paid') as paid_minor,
      (select count(*) from charges where status = 'needs_review') as held,
      (select count(*) from charges where status = 'uncollectible') as uncollectible,
      (select count(*) from subscriptions where status = 'unpaid') as unpaid,
      (select count(*) from invoices) as invoices,
      (select count(*) from subscriptions s where not exists (
        select 1 from charges c where c.subscription_id = s.id
          and c.status in ('paid', 'scheduled', 'processing', 'retrying', 'needs_review'))) as lost`;
  const count = (key: string) => Number(row?.[key] ?? 0);
  const late = await latePaymentReport(h.ctx.db.$client);
  const breaker = await breakerState(h.ctx.db.$client);
  return {
    expected: h.due,
    paidDb: count("paid"),
    paidDbMinor: count("paid_minor"),
    paidLedger: collected.length,
    paidLedgerMinor: collected.reduce((sum, p) => sum + toMinor(p.amount, p.currency), 0),
    doubleCharges: [...perPeriod.values()].filter((n) => n > 1).length,
    duplicatesDetected: late.duplicatesDetected,
    duplicatesRefunded: late.duplicatesRefunded,
    lost: count("lost"),
    heldForReview: count("held"),
    unpaidSubscriptions: count("unpaid"),
    uncollectible: count("uncollectible"),
    invoices: count("invoices"),
    breaker: breaker.open ? `open (${breaker.signal})` : breaker.closedAt ? "closed (resumed)" : "closed",
  };
}
