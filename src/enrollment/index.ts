/** Saving a customer's card through the gateway's hosted checkout, and starting the subscription. */
export {
  applyGatewayCallback,
  type CallbackContext,
  type CallbackOutcome,
  type GatewayCallbackInput,
  type GatewayCallbackResult,
} from "./apply-gateway-callback.js";
export {
  CALLBACK_SOURCES,
  type CallbackSource,
  readChargeOrderId,
  readOrderId,
} from "./callback-params.js";
export { GATEWAY_CALLBACK_PATHS, gatewayCallbackUrls } from "./callback-urls.js";
export { collectByCard } from "./collect-by-card.js";
export {
  type EnrollContext,
  type EnrollInput,
  type EnrollResult,
  enroll,
  type LinkSubscribeResult,
  type SubscribeResult,
  subscribe,
} from "./enroll.js";
export {
  DuplicateSubscriptionError,
  EnrollmentCheckoutError,
  EnrollmentError,
  type EnrollmentErrorCode,
  PaymentVerificationUnavailableError,
} from "./errors.js";
export { ENROLLMENT_EVENTS, GATEWAY_ACTOR, type NeedsAttentionReason } from "./events.js";
export { findOpenSubscription } from "./open-subscription.js";
export { assertPlanTakesSubscriptions } from "./plan-takes-subscriptions.js";
export { type EnrollmentStatus, isSettled } from "./records.js";
export { saveLinkCard } from "./save-link-card.js";
export { startByLink } from "./start-by-link.js";
export {
  type ReEnrollmentContext,
  type StartReEnrollmentInput,
  type StartReEnrollmentResult,
  startReEnrollment,
} from "./start-re-enrollment.js";
export { supersedeCheckouts } from "./supersede-checkouts.js";
export {
  MAX_ENROLLMENTS_SWEPT_PER_RUN,
  stalePendingEnrollments,
  sweepPendingEnrollments,
} from "./sweep-pending.js";
export {
  decideVerification,
  type ExpectedPayment,
  type VerificationDecision,
  type VoidOutcome,
  voidOutcomeOf,
} from "./verification.js";
