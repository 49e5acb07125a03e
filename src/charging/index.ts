/**
 * Charging: collects one charge through GetnewPayment without ever charging a card twice or losing
 * a payment. processCharge is the charge job's body; the building blocks it is made of are exported
 * for tools and for tests that stop between them.
 */
export { callGateway, type GatewayCharge } from "./call-gateway.js";
export { loggedEvent } from "./charge-events.js";
export { type ClaimedCharge, claimBatch, type RecordedAttempt, recordAttempt } from "./claim-batch.js";
export type { LockedCharge } from "./decide-outcome.js";
export {
  AttemptInFlightError,
  ChargeBatchRetryError,
  ChargeNotFoundError,
  ChargeNotHeldError,
  ChargeOutcomeUnknownError,
  ChargeRetryLaterError,
  DeclineUnverifiedError,
  GatewayNotReachedError,
} from "./errors.js";
export { createGatewayLimiter, type GatewayLimiter, type GatewayLimits } from "./gateway-limiter.js";
export {
  type GatewayReport,
  reportFromError,
  reportFromReply,
  TOKEN_NOT_FOUND_CODE,
} from "./gateway-report.js";
export { type ChargeWorkerOptions, ensureChargeJob, startChargeWorker } from "./jobs.js";
export { type ChargeSnapshot, loadCharge, loadCharges, type OpenAttempt } from "./load-charges.js";
export { lockCharges } from "./lock-charges.js";
export { chargeOrderId } from "./order-id.js";
export {
  isLinkSignature,
  isPaymentLinkSignature,
  type LinkPurpose,
  PAYMENT_LINK_PREFIX,
  paymentLinkUrl,
  signedLinkUrl,
} from "./payment-link-url.js";
export { processCharge } from "./process-charge.js";
export {
  type BatchOptions,
  type BatchResult,
  type ProcessChargeOptions,
  processChargeBatch,
} from "./process-charge-batch.js";
export { defaultQuietPeriodMs, quietSeconds, sentBefore } from "./quiet-period.js";
export { type Readiness, readiness } from "./readiness.js";
export { lookUpStatus } from "./reconcile.js";
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
export type { ChargeResult, SkipReason } from "./result.js";
export { resumableOnNewCard } from "./resumable.js";
export { sendPaymentLinks, sendPaymentLinksIn } from "./send-payment-links.js";
export { type FinalReport, type OutcomeInput, recordOutcome, settleBatch } from "./settle-batch.js";
export { type SubscriptionPatch, subscriptionPatch } from "./subscription-patch.js";
export { type DeclineCheck, decideDeclineCheck } from "./verify-decline-decision.js";
export { writeSubscriptionPatches } from "./write-outcomes.js";
