/**
 * Usage billing: what plans charge for metered usage (plan_usage_prices), the periods whose usage
 * is due to be charged, and the preview of the current period's usage. The charging itself runs in
 * the billing tick (scheduler/bill-usage.ts). See docs/usage.md, "Charging usage".
 */

export { type BilledParts, billedParts, type PeriodKey, periodKey } from "./billed-parts.js";
export {
  type DueCursor,
  type DuePeriod,
  LOOKBACK_DAYS,
  lockDuePeriods,
  type ScanWindow,
  scanWindow,
  type UsagePlan,
  usagePlans,
  usagePrices,
} from "./due-periods.js";
export {
  recurringPlanRefusal,
  UsagePriceError,
  type UsagePriceErrorCode,
  UsagePriceInputError,
} from "./errors.js";
export { insertUsageCharges, type PricedPeriod } from "./insert-usage-charges.js";
export { listUsagePrices } from "./list-usage-prices.js";
export { lockWatchedPeriods, thresholdPlanIds, thresholdPlans, type WatchedPeriod } from "./open-periods.js";
export { type DatedUsagePrice, pricesForPeriod, usagePricesOfPlans } from "./prices-of-plans.js";
export { removeUsagePrice } from "./remove-usage-price.js";
export { setUsagePrice } from "./set-usage-price.js";
export { setUsageThreshold, type UsageThreshold, usageThresholdBody } from "./set-usage-threshold.js";
export { usageOfPeriods } from "./usage-of-periods.js";
export { type UsagePreview, usagePreview } from "./usage-preview.js";
export {
  parseUsagePriceInput,
  type UsagePriceBody,
  type UsagePriceInput,
  usagePriceBody,
} from "./usage-price-input.js";
export { type StoredUsagePrice, toStoredUsagePrice } from "./usage-price-record.js";
