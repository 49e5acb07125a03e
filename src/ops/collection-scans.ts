import type { DateTime } from "luxon";
import type { Sql } from "postgres";
import { pgInteger } from "../db/index.js";

/**
 * The live scans behind the collections chart, over consecutive buckets: money collected (paid
 * charges by paid_at) and declines (declined attempts by settled_at, joined to their charge for the
 * currency and amount), each one range scan of its index (charges_paid_at_idx,
 * charge_attempts_settled_idx: migration 0006). Rows are put in buckets by width_bucket over the
 * buckets' starts (computed by the caller, in the merchant's zone) rather than by date_trunc at time
 * zone: no zone conversion per row, and a small integer key that the planner groups in memory (a
 * date_trunc(…)::text key was misestimated and sorted on disk). Refunds and open attempts have
 * scans of their own below.
 */

export interface Tally {
  count: number;
  amountMinor: number;
}

export interface BucketTotals {
  paid: Tally;
  declined: Tally;
}

interface Row {
  /** 1-based index of the bucket (width_bucket). */
  bucket: number;
  n: string;
  amount: string | null;
}

/** Each bucket's tally from the rows grouped by bucket; a bucket without a row had none. */
function tallies(rows: Row[], starts: readonly DateTime[]): Tally[] {
  const byIndex = new Map(rows.map((r) => [r.bucket - 1, r]));
  return starts.map((_, i) => {
    const row = byIndex.get(i);
    return { count: row ? pgInteger(row.n) : 0, amountMinor: row?.amount ? pgInteger(row.amount) : 0 };
  });
}

/** The totals of each bucket starting at `starts` (the last one ends at `to`), rows from `from`. */
export async function scanBuckets(
  sql: Sql,
  starts: readonly DateTime[],
  from: DateTime,
  to: DateTime,
  currency: string,
): Promise<BucketTotals[]> {
  const lower = from.toUTC().toISO();
  const upper = to.toUTC().toISO();
  // Each query reads the bounds in a scalar subquery, so they are cast once, not once per row.
  const bounds = starts.map((start) => start.toUTC().toISO());
  const [paid, declined] = await Promise.all([
    sql<Row[]>`
      select width_bucket(paid_at, (select ${bounds}::text[]::timestamptz[])) as bucket,
             count(*)::text as n, sum(amount_minor)::text as amount
      from charges
      where status = 'paid' and paid_at >= ${lower}::timestamptz and paid_at < ${upper}::timestamptz
        and currency = ${currency}
      group by 1`,
    sql<Row[]>`
      select width_bucket(a.settled_at, (select ${bounds}::text[]::timestamptz[])) as bucket,
             count(*)::text as n, sum(c.amount_minor)::text as amount
      from charge_attempts a join charges c on c.id = a.charge_id
      where a.settled_at is not null and a.status <> 'approved'
        and a.settled_at >= ${lower}::timestamptz and a.settled_at < ${upper}::timestamptz
        and a.status = 'declined' and c.currency = ${currency}
      group by 1`,
  ]);
  const [paidAt, declinedAt] = [tallies(paid, starts), tallies(declined, starts)];
  return starts.map((_, i) => ({ paid: paidAt[i] as Tally, declined: declinedAt[i] as Tally }));
}

/**
 * Money returned in each bucket: refunds of charges' payments that completed or are under
 * processing, by settled_at (the billing time the gateway's answer was recorded, so like paid_at
 * it never lands in a closed day). Only reason `requested`: a duplicate payment's refund returns
 * money that was never counted as collected (a charge is paid once). Not rolled up by closed day
 * as payments are (closed-days.ts: ops_collection_days has no column for it), and refunds has no
 * index on settled_at, so every view scans refunds: they are few, at most one live per payment.
 */
export async function scanRefunds(
  sql: Sql,
  starts: readonly DateTime[],
  from: DateTime,
  to: DateTime,
  currency: string,
): Promise<Tally[]> {
  const bounds = starts.map((start) => start.toUTC().toISO());
  const rows = await sql<Row[]>`
    select width_bucket(r.settled_at, (select ${bounds}::text[]::timestamptz[])) as bucket,
           count(*)::text as n, sum(r.amount_minor)::text as amount
    from refunds r
    where r.status in ('completed', 'under_processing') and r.reason = 'requested'
      and r.settled_at >= ${from.toUTC().toISO()}::timestamptz and r.settled_at < ${to.toUTC().toISO()}::timestamptz
      and r.currency = ${currency}
    group by 1`;
  return tallies(rows, starts);
}

/** Attempts sent in each bucket whose outcome is still unknown or held (charge_attempts_open_idx). */
export async function scanUnknown(
  sql: Sql,
  starts: readonly DateTime[],
  from: DateTime,
  to: DateTime,
  currency: string,
): Promise<number[]> {
  const bounds = starts.map((start) => start.toUTC().toISO());
  const rows = await sql<Row[]>`
    select width_bucket(a.created_at, (select ${bounds}::text[]::timestamptz[])) as bucket,
           count(*)::text as n, null as amount
    from charge_attempts a join charges c on c.id = a.charge_id
    where a.status in ('unknown', 'needs_review')
      and a.created_at >= ${from.toUTC().toISO()}::timestamptz and a.created_at < ${to.toUTC().toISO()}::timestamptz
      and c.currency = ${currency}
    group by 1`;
  const byIndex = new Map(rows.map((r) => [r.bucket - 1, pgInteger(r.n)]));
  return starts.map((_, i) => byIndex.get(i) ?? 0);
}
