/**
 * The benchmark's exactly-once checks, stricter than a count: in the simulator's ledger one
 * successful GetnewPayment per card token (each bench subscription has its own token and one
 * period) and every order id distinct; in the database N paid charges over N subscriptions with N
 * distinct transactions; and the ledger's total equal to the database's paid total to the minor
 * unit (the ledger's decimal strings converted exactly); and every late duplicate payment refunded
 * (late-payments/); and one receipt per paid charge, numbered 1..N with no gap and no repeat although
 * K workers paid them concurrently (src/events/customer-outbox.ts).
 */
import type postgres from "postgres";
import { latePaymentReport } from "../../src/late-payments/index.js";
import { toMinor } from "../../src/money/index.js";
import { collections, readLedgerPayments } from "./ledger.js";

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export async function exactlyOnce(simUrl: string, db: postgres.Sql, n: number): Promise<Check[]> {
  const collected = collections(await readLedgerPayments(simUrl));
  const tokens = new Set(collected.map((p) => p.card_token));
  const orders = new Set(collected.map((p) => p.order_id));
  const ledgerTotal = collected.reduce((sum, p) => sum + toMinor(p.amount, p.currency), 0);
  const [row] = await db<
    { paid: string; subscriptions: string; transactions: string; total: string | null }[]
  >`
    select count(*) as paid, count(distinct subscription_id) as subscriptions,
           count(distinct paid_transaction_id) as transactions, sum(amount_minor) as total
    from charges where status = 'paid'`;
  const paid = Number(row!.paid);
  const [numbers] = await db<
    { receipts: string; distinct: string; low: string | null; high: string | null }[]
  >`
    select count(*) as receipts, count(distinct r.number) as distinct, min(r.number) as low,
           max(r.number) as high
    from receipts r join charges c on c.id = r.charge_id and c.status = 'paid'`;
  const receiptCount = Number(numbers!.receipts);
  const late = await latePaymentReport(db);
  const dbTotal = Number(row!.total ?? 0);
  return [
    {
      name: "ledger: one collection per subscription",
      ok: collected.length === n && tokens.size === n,
      detail: `${collected.length} collections on ${tokens.size} tokens for ${n} subscriptions`,
    },
    {
      name: "ledger: distinct order ids",
      ok: orders.size === collected.length,
      detail: `${orders.size} distinct`,
    },
    {
      name: "database: N paid over N subscriptions, N transactions",
      ok: paid === n && Number(row!.subscriptions) === n && Number(row!.transactions) === n,
      detail: `${paid} paid, ${row!.subscriptions} subscriptions, ${row!.transactions} transactions`,
    },
    {
      name: "ledger total = database paid total",
      ok: ledgerTotal === dbTotal,
      detail: `${ledgerTotal} vs ${dbTotal} minor units`,
    },
    {
      name: "receipts: one per paid charge, numbered 1..N",
      ok:
        receiptCount === paid &&
        Number(numbers!.distinct) === paid &&
        Number(numbers!.low ?? 1) === 1 &&
        Number(numbers!.high ?? 0) === paid,
      detail: `${receiptCount} receipts, ${numbers!.distinct} distinct numbers ${numbers!.low ?? "-"}..${numbers!.high ?? "-"}`,
    },
    {
      name: "late duplicates: every one refunded",
      ok: late.duplicatesLeft === 0,
      detail: `${late.duplicatesDetected} detected, ${late.duplicatesRefunded} refunded, ${late.duplicatesLeft} left`,
    },
  ];
}
