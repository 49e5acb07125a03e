import type { DateTime } from "luxon";
import type { Sql } from "postgres";
import { dayTotals } from "./closed-days.js";
import { type BucketTotals, scanBuckets, scanUnknown } from "./collection-scans.js";
import { bucketStarts, type OpsRange } from "./range.js";

/**
 * Collections over time, per bucket of the range: money collected (paid charges by paid_at), and
 * declined and unknown gateway answers (attempts by when they were settled, or opened for the
 * unknown ones). By the hour every bucket is scanned live (collection-scans.ts); by the day, closed
 * days are read back from their stored totals and only the open ones are scanned (closed-days.ts),
 * so a month-long view does not aggregate a month of charges each time. Unknown outcomes are always
 * live: they settle later, and their partial index is small.
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

export async function collections(
  sql: Sql,
  range: OpsRange,
  currency: string,
  now: DateTime,
): Promise<Collections> {
  // The first start is at or before `from`, so every row in [from, to) falls in one of the buckets.
  const starts = bucketStarts(range);
  const [totals, unknown] = await Promise.all([
    range.unit === "day"
      ? dayTotals(sql, { starts, from: range.from, to: range.to, timezone: range.timezone }, currency, now)
      : scanBuckets(sql, starts, range.from, range.to, currency),
    scanUnknown(sql, starts, range.from, range.to, currency),
  ]);
  const buckets = starts.map((start, i) => {
    const t = totals[i] as BucketTotals;
    return {
      start: start.toISO() ?? "",
      paid: t.paid,
      declined: t.declined,
      unknown: { count: unknown[i] ?? 0 },
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
