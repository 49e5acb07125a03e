/** The billing domain: pure rules for plans, periods, state machines, card tokens and dunning. */
export { type BackoffOptions, exponentialBackoff } from "./backoff.js";
export {
  BREAKER_SIGNALS,
  type BreakerCounts,
  type BreakerSignal,
  type BreakerThresholds,
  type BreakerVerdict,
  breakerVerdict,
} from "./breaker.js";
export {
  addonLine,
  CHARGE_KINDS,
  CHARGE_LINE_KINDS,
  type ChargeKind,
  type ChargeLine,
  type ChargeLineKind,
  linesWorthStoring,
  oneOffLine,
  periodLines,
  planLine,
  subtotalOf,
} from "./charge-lines.js";
export {
  type AttemptOutcome,
  type ChargeEvent,
  type ChargeOutcomeInput,
  type ChargeOutcomeResult,
  chargeOutcome,
  type UncollectibleReason,
} from "./charge-outcome.js";
export {
  ATTEMPT_STATES,
  ATTEMPT_TRANSITIONS,
  type AttemptState,
  assertAttemptTransition,
  assertChargeTransition,
  CHARGE_STATES,
  CHARGE_TRANSITIONS,
  type ChargeState,
  canAttemptTransition,
  canChargeTransition,
  isTerminalAttemptState,
  isTerminalChargeState,
} from "./charge-states.js";
export {
  type CreditGrant,
  type CreditGrantRefusal,
  creditGrantRefusal,
  MAX_CREDIT_PERIODS,
  maxCreditMinor,
} from "./credit.js";
export {
  isMessageKind,
  MESSAGE_KINDS,
  MESSAGE_STATUSES,
  type MessageKind,
  type MessageStatus,
} from "./customer-messages.js";
export {
  classifyDecline,
  DECLINE_RULES,
  type DeclineClassification,
  type DeclineKind,
  type DeclineReason,
  type DeclineRule,
  explainDecline,
} from "./decline.js";
export {
  COUPON_DURATIONS,
  type CouponDuration,
  type CouponDurationTerms,
  type CouponRefusal,
  type CouponState,
  type CouponTermFields,
  type CouponTerms,
  chargeForPeriod,
  couponRefusal,
  couponTerms,
  DISCOUNT_TYPES,
  discountCoversNext,
  discountMinor,
  type PeriodCharge,
  type PeriodPrice,
} from "./discount.js";
export {
  DEFAULT_DUNNING_POLICY,
  DEFAULT_RETRY_OFFSETS_DAYS,
  type DunningPolicy,
  DunningPolicyError,
  type DunningProgress,
  dunningPolicySchema,
  MAX_RETRY_OFFSET_DAYS,
  nextRetry,
  parseDunningPolicy,
  type RetryDecision,
  TERMINAL_ACTIONS,
  type TerminalAction,
} from "./dunning.js";
export * from "./entitlements.js";
export { amountFixedByToken } from "./fixed-amount.js";
export { INTERVAL_UNITS, type IntervalUnit } from "./interval-units.js";
export {
  type LatePaymentDecision,
  type LateWatchPolicy,
  latePaymentDecision,
  lateWatchDelaySeconds,
} from "./late-payment.js";
export { firstLateCheckSeconds, lateWatchPolicy } from "./late-watch.js";
export { MESSAGE_RETRY_BASE_MS, MESSAGE_RETRY_CAP_MS, messageRetryDelay } from "./message-retry.js";
export { monthlyRecurringMinor, type PlanShare } from "./mrr.js";
export { localDay, type NoticeWindow, noticeWindow } from "./notice-window.js";
export {
  COLLECTION_METHODS,
  type CollectionMethod,
  type LinkStep,
  nextLinkStep,
} from "./payment-link.js";
export {
  CardExpiryFormatError,
  EXPIRY_NOTICE_WINDOW,
  expiringSoon,
  isChargeable,
  parseCardExpiry,
  TOKEN_LIFETIME,
  type TokenLifecycle,
  type TokenStatus,
  tokenExpiry,
  tokenStatus,
} from "./payment-method.js";
export {
  type BillingInterval,
  type BillingPeriod,
  clampDay,
  DEFAULT_BILLING_ZONE,
  daysInMonth,
  nextPeriod,
  periodAt,
  periodBoundary,
  periodContaining,
  trialEnd,
} from "./periods.js";
export {
  BILLING_MODES,
  type BillingMode,
  currencyCode,
  decimalAmountText,
  MAX_INTERVAL_COUNT,
  MAX_TRIAL_DAYS,
  type Plan,
  type PlanInput,
  PlanInputError,
  type PlanInputOptions,
  parsePlanInput,
  planInputSchema,
  planInterval,
  positiveMinorUnits,
} from "./plan.js";
export { assertTrialKept, type PlanUpdate, parsePlanUpdate, planUpdateSchema } from "./plan-update.js";
export * from "./price-models.js";
export {
  type PeriodCost,
  type PlanChangeInput,
  type PlanChangeQuote,
  type PricedPlan,
  pricesForProration,
  quotePlanChange,
  sameInterval,
} from "./proration.js";
export { PRORATION_BEHAVIORS, type ProrationBehavior } from "./proration-behaviors.js";
export { type QuietHours, quietUntil } from "./quiet-hours.js";
export { nextRecordAttempt, RECORD_MAX_ATTEMPTS } from "./record-retry.js";
export {
  CHARGE_REFUND_STATES,
  type ChargeRefund,
  type ChargeRefundState,
  chargeRefund,
  type RefundFact,
  type RefundReason,
  type RefundStatus,
} from "./refund-state.js";
export { Refusal } from "./refusal.js";
export {
  findRetryLimitViolation,
  RETRY_LIMIT_RULES,
  type RetryLimitRule,
  type RetryLimitViolation,
} from "./retry-limits.js";
export { mulDivHalfUp } from "./rounding.js";
export { IllegalTransitionError, type TransitionTable } from "./state-machine.js";
export { isStorableText, storableText } from "./storable-text.js";
export {
  assertTransition,
  type CancellationMode,
  cancellationEffectiveAt,
  canTransition,
  isBilling,
  isLive,
  isSubscriptionState,
  isTerminalSubscriptionState,
  LIVE_SUBSCRIPTION_STATES,
  SUBSCRIPTION_STATES,
  SUBSCRIPTION_TRANSITIONS,
  type SubscriptionState,
} from "./subscription-states.js";
export { type DocumentSeries, formatDocumentNumber, includedTax } from "./tax.js";
export { type BilledUsage, lessBilled, priceGrowsWithUsage } from "./usage-parts.js";
export { byMeterCode, MAX_USAGE_LINE_QUANTITY, priceUsage, type UsagePrice } from "./usage-pricing.js";
