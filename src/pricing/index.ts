/**
 * What each charge costs: the live coupon and the subscription's credit, applied to plan prices;
 * and the credit a person grants (grant-credit.ts).
 */
export { createdChargeEvents } from "./charge-events.js";
export { type CreditGrantBody, CreditInputError, creditGrantBody } from "./credit-input.js";
export {
  type CreditGranted,
  CreditRefusal,
  type CreditRefusalCode,
  type GrantCreditInput,
  grantCredit,
} from "./grant-credit.js";
export { type LiveDiscount, liveDiscounts, recordDiscountUse, termFieldsOf } from "./live-discounts.js";
export {
  type PriceColumns,
  periodPriceMinor,
  priceModelOfColumns,
  type StoredPlanPrice,
} from "./plan-price.js";
export { type PricedPeriods, pricePeriods } from "./price-periods.js";
export { chargeLinesOf, insertChargeLines, type StoredLine } from "./stored-lines.js";
