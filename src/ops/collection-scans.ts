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
 * date_trunc(…)::text key was misestimated and sorted on disk).
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
  const tally = (rows: Row[]) => {
    const byIndex = new Map(rows.map((r) => [r.bucket - 1, r]));
    return (i: number): Tally => {
      const row = byIndex.get(i);
      return { count: row ? pgInteger(row.n) : 0, amountMinor: row?.amount ? pgInteger(row.amount) : 0 };
    };
  };
  const [paidAt, declinedAt] = [tally(paid), tally(declined)];
  return starts.map((_, i) => ({ paid: paidAt(i), declined: declinedAt(i) }));
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
