import type { Sql } from "postgres";
import { pgInteger } from "../db/index.js";
import { bucketKey, bucketStarts, type OpsRange } from "./range.js";

/**
 * Collections over time, per bucket of the range: money collected (paid charges by paid_at), and
 * declined and unknown gateway answers (attempts by when they were settled, or opened for the
 * unknown ones). Each comes from one range scan of an index that holds every column it needs
 * (charges_paid_at_idx, charge_attempts_settled_idx, charge_attempts_open_idx: migration 0006),
 * so a view costs the rows in its range, never a scan of the whole table.
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
  bucket: string;
  n: string;
  amount: string | null;
}

export async function collections(sql: Sql, range: OpsRange, currency: string): Promise<Collections> {
  const from = range.from.toUTC().toISO();
  const to = range.to.toUTC().toISO();
  const { unit, timezone } = range;
  const [paid, declined, unknown] = await Promise.all([
    sql<Row[]>`
      select date_trunc(${unit}, paid_at at time zone ${timezone})::text as bucket,
             count(*)::text as n, sum(amount_minor)::text as amount
      from charges
      where status = 'paid' and paid_at >= ${from}::timestamptz and paid_at < ${to}::timestamptz
        and currency = ${currency}
      group by 1`,
    sql<Row[]>`
      select date_trunc(${unit}, a.settled_at at time zone ${timezone})::text as bucket,
             count(*)::text as n, sum(c.amount_minor)::text as amount
      from charge_attempts a join charges c on c.id = a.charge_id
      where a.settled_at is not null and a.status <> 'approved'
        and a.settled_at >= ${from}::timestamptz and a.settled_at < ${to}::timestamptz
        and a.status = 'declined' and c.currency = ${currency}
      group by 1`,
    sql<Row[]>`
      select date_trunc(${unit}, a.created_at at time zone ${timezone})::text as bucket,
             count(*)::text as n, null as amount
      from charge_attempts a join charges c on c.id = a.charge_id
      where a.status in ('unknown', 'needs_review')
        and a.created_at >= ${from}::timestamptz and a.created_at < ${to}::timestamptz
        and c.currency = ${currency}
      group by 1`,
  ]);
  const byKey = (rows: Row[]) => new Map(rows.map((r) => [r.bucket, r]));
  const [paidBy, declinedBy, unknownBy] = [byKey(paid), byKey(declined), byKey(unknown)];
  const count = (row: Row | undefined) => (row ? pgInteger(row.n) : 0);
  const amount = (row: Row | undefined) => (row?.amount ? pgInteger(row.amount) : 0);

  const buckets = bucketStarts(range).map((start) => {
    const key = bucketKey(start);
    return {
      start: start.toISO() ?? "",
      paid: { count: count(paidBy.get(key)), amountMinor: amount(paidBy.get(key)) },
      declined: { count: count(declinedBy.get(key)), amountMinor: amount(declinedBy.get(key)) },
      unknown: { count: count(unknownBy.get(key)) },
    };
  });
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
