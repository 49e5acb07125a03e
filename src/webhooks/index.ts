/**
 * Outgoing webhooks to the merchant's own endpoints. Events are put in the outbox by recordEvent
 * (src/events); from there this module adds the object a charge or subscription event carries
 * (attach-objects.ts), signs, sends, retries and reports them.
 */

export {
  type AddressClass,
  type AllowList,
  addressRefusal,
  classifyAddress,
  compileAllowList,
  parseIp,
} from "./address-policy.js";
export { DEFAULT_WEBHOOK_TIMEOUT_MS, type WebhookContext } from "./context.js";
export { type DeliveryOutcome, deliverWebhook, EVENT_ID_HEADER, EVENT_TYPE_HEADER } from "./deliver.js";
export {
  type DeliveryFilter,
  listDeliveries,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
} from "./deliveries.js";
export {
  DestinationRefusedError,
  type ResolvedAddress,
  type ResolveHost,
  systemResolve,
  vetDestination,
} from "./destination.js";
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
  type EndpointContext,
  generateWebhookSecret,
  listWebhookEndpoints,
  type WebhookEndpointInput,
  type WebhookEndpointSummary,
  WebhookUrlRefusedError,
} from "./endpoints.js";
export {
  type ExpiringNotice,
  type ExpiringPaymentMethod,
  type FindExpiringOptions,
  findExpiringPaymentMethods,
  type NotifyExpiringOptions,
  notifyExpiringPaymentMethods,
} from "./expiring-payment-methods.js";
export { type ObjectKind, objectKindOf } from "./object-kinds.js";
export {
  type ChargeObject,
  chargeEventSchema,
  chargeObjectSchema,
  otherEventSchema,
  type SubscriptionObject,
  subscriptionEventSchema,
  subscriptionObjectSchema,
} from "./object-schemas.js";
export { webhookAttemptJobId, webhookEnqueuer, webhookJobProcessor } from "./queue.js";
export {
  DEFAULT_WEBHOOK_RETRY_POLICY,
  type WebhookRetryPolicy,
  webhookRetryDelay,
  webhookRetryPolicy,
} from "./retry-policy.js";
export { openWebhookSecret, resealWebhookSecrets } from "./secrets.js";
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
