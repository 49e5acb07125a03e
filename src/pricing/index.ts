/** What each charge costs: the live coupon and the subscription's credit, applied to plan prices. */
export { createdChargeEvents } from "./charge-events.js";
export { type LiveDiscount, liveDiscounts, recordDiscountUse, termFieldsOf } from "./live-discounts.js";
export { type PricedPeriods, pricePeriods } from "./price-periods.js";
