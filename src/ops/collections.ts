import type { Sql } from "postgres";
import { pgInteger } from "../db/index.js";
import { bucketStarts, type OpsRange } from "./range.js";

/**
 * Collections over time, per bucket of the range: money collected (paid charges by paid_at), and
 * declined and unknown gateway answers (attempts by when they were settled, or opened for the
 * unknown ones), each from one range scan of its index (charges_paid_at_idx,
 * charge_attempts_settled_idx, charge_attempts_open_idx: migration 0006); an attempt joins its
 * charge for the currency and amount. A view costs the rows in its range, which at a million
 * subscriptions over 30 or 90 days is most of the table (README, Benchmarks). Rows are put in
 * buckets by width_bucket over the buckets' starts (computed here, in the merchant's zone) rather
 * than by date_trunc at time zone: no zone conversion per row, and a small integer key that the
 * planner groups in memory (a date_trunc(…)::text key was misestimated and sorted on disk).
 */

export interface CollectionBucket {
  /** Local start of the bucket, ISO with offset. */
  start: string;
  paid: { count: number; amountMinor: number };
  declined: { count: number; amountMinor: number };
  /**
   * Attempts sent in the bucket whose outcome is still not known, or held for a person. They are
   * placed by when they were sent on the wall clock (an open attempt has no billing-clock time
   * yet), which is the billing clock in production; under a controllable clock they land where
   * real time is.
   */
  unknown: { count: number };
}

export interface Collections {
  currency: string;
  buckets: CollectionBucket[];
  totals: {
    paid: { count: number; amountMinor: number };
    declined: { count: number; amountMinor: number };
    unknown: { count: number };
  };
}

interface Row {
  /** 1-based index of the bucket (width_bucket). */
  bucket: number;
  n: string;
  amount: string | null;
}

export async function collections(sql: Sql, range: OpsRange, currency: string): Promise<Collections> {
  const from = range.from.toUTC().toISO();
  const to = range.to.toUTC().toISO();
  const starts = bucketStarts(range);
  // The first start is at or before `from`, so every row in [from, to) falls in 1..starts.length.
  // Each query reads the bounds in a scalar subquery, so they are cast once, not once per row.
  const bounds = starts.map((start) => start.toUTC().toISO());
  const [paid, declined, unknown] = await Promise.all([
    sql<Row[]>`
      select width_bucket(paid_at, (select ${bounds}::text[]::timestamptz[])) as bucket,
             count(*)::text as n, sum(amount_minor)::text as amount
      from charges
      where status = 'paid' and paid_at >= ${from}::timestamptz and paid_at < ${to}::timestamptz
        and currency = ${currency}
      group by 1`,
    sql<Row[]>`
      select width_bucket(a.settled_at, (select ${bounds}::text[]::timestamptz[])) as bucket,
             count(*)::text as n, sum(c.amount_minor)::text as amount
      from charge_attempts a join charges c on c.id = a.charge_id
      where a.settled_at is not null and a.status <> 'approved'
        and a.settled_at >= ${from}::timestamptz and a.settled_at < ${to}::timestamptz
        and a.status = 'declined' and c.currency = ${currency}
      group by 1`,
    sql<Row[]>`
      select width_bucket(a.created_at, (select ${bounds}::text[]::timestamptz[])) as bucket,
             count(*)::text as n, null as amount
      from charge_attempts a join charges c on c.id = a.charge_id
      where a.status in ('unknown', 'needs_review')
        and a.created_at >= ${from}::timestamptz and a.created_at < ${to}::timestamptz
        and c.currency = ${currency}
      group by 1`,
  ]);
  const byIndex = (rows: Row[]) => new Map(rows.map((r) => [r.bucket - 1, r]));
  const [paidBy, declinedBy, unknownBy] = [byIndex(paid), byIndex(declined), byIndex(unknown)];
  const count = (row: Row | undefined) => (row ? pgInteger(row.n) : 0);
  const amount = (row: Row | undefined) => (row?.amount ? pgInteger(row.amount) : 0);

  const buckets = starts.map((start, i) => ({
    start: start.toISO() ?? "",
    paid: { count: count(paidBy.get(i)), amountMinor: amount(paidBy.get(i)) },
    declined: { count: count(declinedBy.get(i)), amountMinor: amount(declinedBy.get(i)) },
    unknown: { count: count(unknownBy.get(i)) },
  }));
  const sum = (pick: (b: CollectionBucket) => number) => buckets.reduce((total, b) => total + pick(b), 0);
  return {
    currency,
    buckets,
    totals: {
      paid: { count: sum((b) => b.paid.count), amountMinor: sum((b) => b.paid.amountMinor) },
      declined: { count: sum((b) => b.declined.count), amountMinor: sum((b) => b.declined.amountMinor) },
      unknown: { count: sum((b) => b.unknown.count) },
    },
  };
}
