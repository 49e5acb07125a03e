/**
 * Operators' tools over dunning: a run over due (or all) retrying charges, and "retry now" (with
 * the API's refusals of a charge it would not touch).
 */
export { retryCharge } from "./retry-charge.js";
export { type PendingReason, type RetryNowResult, retryChargeNow } from "./retry-now.js";
export {
  type CollectedCharge,
  type DunningChargeReport,
  type DunningOutcome,
  type DunningProgress,
  type DunningRunOptions,
  type DunningSummary,
  runDunning,
} from "./run.js";
export type { DunningSelection, SelectedCharge } from "./select-charges.js";
export {
  countCollections,
  countDryRun,
  type DunningBucket,
  type DunningCounts,
  type DunningSkipReason,
  type Placement,
  placeCollection,
} from "./summary.js";
