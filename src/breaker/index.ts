/**
 * The gateway circuit breaker: systemic failure (many cards refused with -7, many sent payments
 * "not found", authentication refusals, status checks failing for many payments) pauses collection
 * everywhere until an operator resumes it: no new money-taking call, while reads (reconciliation,
 * late payments) and refunds of duplicates go on.
 */

export { resumeCollection } from "./resume.js";
export { breakerThresholds, recordGatewaySignal } from "./signal.js";
export { type BreakerState, breakerState, collectionPaused, openBreaker } from "./state.js";
