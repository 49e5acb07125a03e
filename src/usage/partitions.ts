import type { DateTime } from "luxon";
import type { Sql } from "../db/index.js";

/**
 * Rule: an event never fails for want of its month's partition. usage_events has one partition
 * per UTC month, made by the database function usage_ensure_partitions (migration 0015), which
 * creates only the missing ones and tolerates a concurrent creator. The usage sweep makes them ahead
 * of time; ingestion also makes a month it has not seen in this process before inserting into it,
 * so an event dated in an unforeseen month (a yearly period's start) still lands. Months known to
 * exist are remembered per pool, so the hot path asks at most once per month per process.
 */

const known = new WeakMap<Sql, Set<string>>();

/** "2026-01" for an epoch-millisecond instant, in UTC as the partitions are. */
export const monthOf = (ms: number): string => new Date(ms).toISOString().slice(0, 7);

/**
 * Makes the partitions of `months` UTC months from the one holding `from` (those missing);
 * returns how many were created.
 */
export async function ensureUsagePartitions(
  sql: Sql,
  from: DateTime | Date,
  months: number,
): Promise<number> {
  const start = from instanceof Date ? from.toISOString() : from.toUTC().toISO();
  const [row] = await sql<{ created: number }[]>`
    select usage_ensure_partitions(${start}::timestamptz, ${months}::int) as created`;
  return row?.created ?? 0;
}

/** Makes sure every month of these instants has its partition, asking only about months new to this process. */
export async function ensureMonthsOf(sql: Sql, instants: Iterable<number>): Promise<void> {
  let seen = known.get(sql);
  if (!seen) {
    seen = new Set();
    known.set(sql, seen);
  }
  const missing = new Set<string>();
  for (const ms of instants) {
    const month = monthOf(ms);
    if (!seen.has(month)) missing.add(month);
  }
  for (const month of missing) {
    await ensureUsagePartitions(sql, new Date(`${month}-01T00:00:00Z`), 1);
    seen.add(month);
  }
}

/** Forgets what this process knows, after an insert found a partition missing (one was dropped). */
export function forgetPartitions(sql: Sql): void {
  known.delete(sql);
}
