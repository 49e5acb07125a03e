import type { DunningCounts } from "../dunning/index.js";

/**
 * The counts of a dunning run in the API's snake_case (its DunningSummary), which the CLI prints
 * too (`billing dunning run`).
 */
export function presentDunningCounts(counts: DunningCounts) {
  return {
    selected: counts.selected,
    attempted: counts.attempted,
    approved: counts.approved,
    declined: counts.declined,
    unknown: counts.unknown,
    needs_review: counts.needsReview,
    deferred: counts.deferred,
    failed: counts.failed,
    skipped: counts.skipped,
    skip_reasons: { ...counts.skipReasons },
  };
}
