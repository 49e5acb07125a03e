/**
 * Outgoing webhooks to the merchant's own endpoints. Events are put in the outbox by recordEvent
 * (src/events); from there this module signs, sends, retries and reports them.
 */
export { DEFAULT_WEBHOOK_TIMEOUT_MS, type WebhookContext } from "./context.js";
export { type DeliveryOutcome, deliverWebhook, EVENT_ID_HEADER, EVENT_TYPE_HEADER } from "./deliver.js";
export {
  type DeliveryFilter,
  listDeliveries,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
} from "./deliveries.js";
export {
  type DispatchOptions,
  type DispatchResult,
  dispatchDueWebhooks,
  type EnqueueDelivery,
} from "./dispatch.js";
export {
  type CreatedWebhookEndpoint,
  createWebhookEndpoint,
  disableWebhookEndpoint,
  generateWebhookSecret,
  listWebhookEndpoints,
  type WebhookEndpointInput,
  type WebhookEndpointSummary,
} from "./endpoints.js";
export {
  type ExpiringNotice,
  type ExpiringPaymentMethod,
  type FindExpiringOptions,
  findExpiringPaymentMethods,
  type NotifyExpiringOptions,
  notifyExpiringPaymentMethods,
} from "./expiring-payment-methods.js";
export { webhookAttemptJobId, webhookEnqueuer, webhookJobProcessor } from "./queue.js";
export {
  DEFAULT_WEBHOOK_RETRY_POLICY,
  type WebhookRetryPolicy,
  webhookRetryDelay,
  webhookRetryPolicy,
} from "./retry-policy.js";
export {
  DEFAULT_TOLERANCE_SECONDS,
  type RawBody,
  SIGNATURE_HEADER,
  SIGNATURE_SCHEME,
  type SignInput,
  signWebhook,
  type VerifyFailure,
  type VerifyInput,
  type VerifyResult,
  verifyWebhookSignature,
} from "./signature.js";
