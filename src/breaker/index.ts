/**
 * The gateway circuit breaker: systemic failure (many cards refused with -7, many sent payments
 * "not found", authentication refusals) pauses collection everywhere until an operator resumes it.
 */

export { resumeCollection } from "./resume.js";
export { breakerThresholds, recordGatewaySignal } from "./signal.js";
export { type BreakerState, breakerState, collectionPaused } from "./state.js";
