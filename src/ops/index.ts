/**
 * The ops dashboard's read models (served by http/ops-*): collections, the dunning funnel,
 * collection by payment link (the split by method, the link funnel, what waits on a customer),
 * subscriptions and MRR, usage revenue, what is coming, what needs a person, and queue health,
 * each from indexed range scans (migration 0006). `npm run bench:ops` measures them at a million
 * subscriptions, where some still read most of a table per view (README, Benchmarks). Its logins
 * are src/sessions.
 */
export {
  type Attention,
  type AttentionCharge,
  type AttentionEnrollment,
  attention,
  type FailedInvoice,
  type FailingEndpoint,
} from "./attention.js";
export { type CollectionBucket, type Collections, collections } from "./collections.js";
export { type DunningFunnel, dunningFunnel } from "./dunning-funnel.js";
export {
  type AwaitingCurrency,
  type AwaitingPayment,
  type PaymentLinkFigures,
  type PaymentLinkFunnel,
  type PaymentLinkOverview,
  paymentLinkFigures,
  paymentLinkOverview,
} from "./payment-links.js";
export { type QueueHealth, queueHealth } from "./queue-health.js";
export {
  type BucketUnit,
  dayRange,
  MAX_RANGE_DAYS,
  type OpsRange,
  presetRange,
  RANGE_PRESETS,
  type RangePreset,
} from "./range.js";
export { type OpsReader, type OpsSnapshot, opsReader } from "./snapshot.js";
export { type SubscriptionOverview, subscriptionOverview } from "./subscriptions.js";
export { type Upcoming, upcoming } from "./upcoming.js";
export { type UsageRevenue, usageRevenue } from "./usage-revenue.js";
