import type { AttemptState, ChargeState } from "../billing/index.js";

/**
 * Which rows an outcome or a release may settle: an open attempt (in_flight or unknown) of a charge
 * in processing, as the worker finds it; or, for an operator's reconcile, an attempt held for review
 * with its charge (both needs_review). The conditional writes check both, so a settled or racing
 * row is left alone.
 */
export interface SettlingFrom {
  readonly charge: ChargeState;
  readonly attempt: AttemptState[];
}

export function settlingFrom(held: boolean): SettlingFrom {
  return held
    ? { charge: "needs_review", attempt: ["needs_review"] }
    : { charge: "processing", attempt: ["in_flight", "unknown"] };
}
