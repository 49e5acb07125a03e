/** Ending, pausing and resuming subscriptions, and stopping their saved cards at the gateway. */
export {
  type CancelResult,
  type CancelSubscriptionInput,
  cancelSubscription,
  cancelSubscriptionInput,
} from "./cancel-subscription.js";
export {
  type DeactivationOutcome,
  deactivateToken,
  PaymentMethodNotFoundError,
  TokenDeactivationRefusedError,
} from "./deactivate-token.js";
export {
  type PauseResult,
  type PauseSubscriptionInput,
  pauseSubscription,
  pauseSubscriptionInput,
} from "./pause-subscription.js";
export {
  type ResumeResult,
  type ResumeSubscriptionInput,
  resumeSubscription,
  resumeSubscriptionInput,
} from "./resume-subscription.js";
export { lockSubscription, SubscriptionNotFoundError, type SubscriptionRow } from "./subscription-row.js";
export { startTokenDeactivationWorker } from "./worker.js";
