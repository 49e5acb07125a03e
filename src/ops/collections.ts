import type { DateTime } from "luxon";
import type { Sql } from "postgres";
import { dayTotals } from "./closed-days.js";
import { type BucketTotals, scanBuckets, scanRefunds, scanUnknown, type Tally } from "./collection-scans.js";
import { bucketStarts, type OpsRange } from "./range.js";

/**
 * Collections over time, per bucket of the range: money collected, net of refunds (paid charges by
 * paid_at, less their refunds by when the gateway took them, so it agrees with what the gateway's
 * ledger holds for the merchant), and declined and unknown gateway answers (attempts by when they
 * were settled, or opened for the unknown ones). By the hour every bucket is scanned live
 * (collection-scans.ts); by the day, closed days are read back from their stored totals and only
 * the open ones are scanned (closed-days.ts), so a month-long view does not aggregate a month of
 * charges each time. Unknown outcomes and refunds are always live: unknown ones settle later and
 * their partial index is small; refunds are few.
 */

export interface CollectionBucket {
  /** Local start of the bucket, ISO with offset. */
  start: string;
  /** Charges paid in the bucket, in full: what came in before any refund. */
  paid: Tally;
  /** Refunds of charges' payments the gateway took in the bucket (whenever the charge was paid). */
  refunded: Tally;
  /** paid less refunded; below zero in a bucket that returned more than it took. */
  collected: { amountMinor: number };
  declined: Tally;
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
    paid: Tally;
    refunded: Tally;
    collected: { amountMinor: number };
    declined: Tally;
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
  const [totals, refunded, unknown] = await Promise.all([
    range.unit === "day"
      ? dayTotals(sql, { starts, from: range.from, to: range.to, timezone: range.timezone }, currency, now)
      : scanBuckets(sql, starts, range.from, range.to, currency),
    scanRefunds(sql, starts, range.from, range.to, currency),
    scanUnknown(sql, starts, range.from, range.to, currency),
  ]);
  const buckets = starts.map((start, i) => {
    const t = totals[i] as BucketTotals;
    const returned = refunded[i] as Tally;
    return {
      start: start.toISO() ?? "",
      paid: t.paid,
      refunded: returned,
      collected: { amountMinor: t.paid.amountMinor - returned.amountMinor },
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
      refunded: { count: sum((b) => b.refunded.count), amountMinor: sum((b) => b.refunded.amountMinor) },
      collected: { amountMinor: sum((b) => b.collected.amountMinor) },
      declined: { count: sum((b) => b.declined.count), amountMinor: sum((b) => b.declined.amountMinor) },
      unknown: { count: sum((b) => b.unknown.count) },
    },
  };
}
