import type { SkipReason } from "../charging/index.js";
import type { RetryNowResult } from "./retry-now.js";

/**
 * Rule: a dunning run's counts add up. Each selected charge is counted in exactly one bucket, so
 *
 *   selected  = attempted + skipped
 *   attempted = approved + declined + unknown + needs_review + deferred + failed
 *
 * A run races the charge workers: between its selection and its claim a worker may have claimed,
 * collected or still be sending a charge. The run did not attempt those, so they are `skipped`,
 * counted by reason, never passed off as attempts (a run racing the workers once
 * reported "attempted 102, approved 3, declined 0, unknown 6"). Pure: the run (run.ts) hands over what each collection returned.
 */

export type DunningBucket =
  | "approved"
  | "declined"
  | "unknown"
  | "needs_review"
  | "deferred"
  | "failed"
  | "skipped";

/**
 * Why a selected charge was not attempted: the charge's own skip reasons, an attempt of another
 * worker still in flight, or a dry run.
 */
export type DunningSkipReason = Exclude<SkipReason, "card_refused_once"> | "in_flight_elsewhere" | "dry_run";

export type Placement =
  | { readonly bucket: Exclude<DunningBucket, "skipped"> }
  | { readonly bucket: "skipped"; readonly skipReason: DunningSkipReason };

export interface DunningCounts {
  /** Charges the run selected (due retries, or every retrying charge with `all`). */
  readonly selected: number;
  /** Charges the run collected itself: the sum of the six outcome buckets below. */
  readonly attempted: number;
  readonly approved: number;
  /** Declined, or ended because the card token cannot be used. */
  readonly declined: number;
  /** The gateway's answer is not known: reconciliation continues on the charge queue. */
  readonly unknown: number;
  /** Held for an operator (the gateway rejected the request, or reconciliation gave up). */
  readonly needsReview: number;
  /** The gateway took nothing (not reached, or a card refusal to confirm): due again later. */
  readonly deferred: number;
  /** The collection failed with an error (logged); the charge is as the error left it. */
  readonly failed: number;
  /** Selected but not attempted; skipReasons says why. */
  readonly skipped: number;
  readonly skipReasons: Readonly<Partial<Record<DunningSkipReason, number>>>;
}

/** Where one collection is counted; `undefined` is a collection that threw. */
export function placeCollection(result: RetryNowResult | undefined): Placement {
  if (!result) return { bucket: "failed" };
  switch (result.kind) {
    case "paid":
      return { bucket: "approved" };
    case "declined":
    case "token_unusable":
      return { bucket: "declined" };
    case "needs_review":
      return { bucket: "needs_review" };
    case "pending":
      if (result.reason === "in_flight_elsewhere") return { bucket: "skipped", skipReason: result.reason };
      return { bucket: result.reason === "gateway_not_reached" ? "deferred" : "unknown" };
    case "skipped":
      // The gateway was called and refused the card; it is asked again before the card is retired.
      if (result.reason === "card_refused_once") return { bucket: "deferred" };
      return { bucket: "skipped", skipReason: result.reason };
  }
}

const ZERO = {
  attempted: 0,
  approved: 0,
  declined: 0,
  unknown: 0,
  needsReview: 0,
  deferred: 0,
  failed: 0,
  skipped: 0,
} as const;

const FIELD: Record<Exclude<DunningBucket, "skipped">, keyof typeof ZERO> = {
  approved: "approved",
  declined: "declined",
  unknown: "unknown",
  needs_review: "needsReview",
  deferred: "deferred",
  failed: "failed",
};

/** The counts of a run, from each selected charge's collection (`undefined`: it threw). */
export function countCollections(results: readonly (RetryNowResult | undefined)[]): DunningCounts {
  const counts: Record<keyof typeof ZERO, number> = { ...ZERO };
  const skipReasons: Partial<Record<DunningSkipReason, number>> = {};
  for (const result of results) {
    const placement = placeCollection(result);
    if (placement.bucket === "skipped") {
      counts.skipped += 1;
      skipReasons[placement.skipReason] = (skipReasons[placement.skipReason] ?? 0) + 1;
    } else {
      counts[FIELD[placement.bucket]] += 1;
      counts.attempted += 1;
    }
  }
  return { selected: results.length, ...counts, skipReasons };
}

/** A dry run attempts nothing: every selected charge is skipped as `dry_run`. */
export function countDryRun(selected: number): DunningCounts {
  return { selected, ...ZERO, skipped: selected, skipReasons: selected > 0 ? { dry_run: selected } : {} };
}
