/**
 * Charging: collects one charge through GetnewPayment without ever charging a card twice or losing
 * a payment. processCharge is the charge job's body; the building blocks it is made of are exported
 * for tools and for tests that stop between them.
 */
export { callGateway, type GatewayCharge } from "./call-gateway.js";
export {
  AttemptInFlightError,
  ChargeNotFoundError,
  ChargeNotHeldError,
  ChargeOutcomeUnknownError,
  ChargeRetryLaterError,
  GatewayNotReachedError,
} from "./errors.js";
export {
  type GatewayReport,
  reportFromError,
  reportFromReply,
  TOKEN_NOT_FOUND_CODE,
} from "./gateway-report.js";
export { type ChargeWorkerOptions, ensureChargeJob, startChargeWorker } from "./jobs.js";
export { type ChargeSnapshot, loadCharge, type OpenAttempt } from "./load-charge.js";
export { chargeOrderId } from "./order-id.js";
export { type ProcessChargeOptions, processCharge } from "./process-charge.js";
export { defaultQuietPeriodMs, sentBefore } from "./quiet-period.js";
export { type Readiness, readiness } from "./readiness.js";
export {
  decideReconcile,
  type ReconcileDecision,
  type ReconcileInput,
  type StatusLookup,
} from "./reconcile-decision.js";
export {
  type ReconcileHeldOptions,
  type ReconcileHeldResult,
  reconcileHeldCharge,
} from "./reconcile-held-charge.js";
export { type ClaimedCharge, type RecordedAttempt, recordAttempt } from "./record-attempt.js";
export { type FinalReport, type OutcomeInput, recordOutcome } from "./record-outcome.js";
export type { ChargeResult, SkipReason } from "./result.js";
export { resumableOnNewCard } from "./resumable.js";
