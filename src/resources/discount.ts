import { z } from "zod";
import { COUPON_DURATIONS, DISCOUNT_TYPES } from "../billing/index.js";
import type { StoredCoupon } from "../coupons/coupon-record.js";
import type { LiveDiscount } from "../coupons/live-discount.js";
import { iso, moneySchema, presentMoney, timestamp } from "./shapes.js";

/** A coupon's terms, and the discount a subscription holds from one, as the subscription shows it. */

/** What a coupon takes off each period it covers: a percent, or an amount in one currency. */
export const couponTermsShape = {
  discount_type: z.enum(DISCOUNT_TYPES),
  percent_off: z.number().int().nullable().describe("Whole percent (percentage coupons)"),
  amount_off: moneySchema.nullable().describe("Taken off each period's price (fixed coupons)"),
  duration: z.enum(COUPON_DURATIONS),
  duration_periods: z.number().int().nullable().describe("How many periods (repeating only)"),
};

export function presentTerms(coupon: StoredCoupon) {
  const { terms } = coupon;
  return {
    discount_type: terms.type,
    percent_off: terms.type === "percentage" ? terms.percentOff : null,
    amount_off: terms.type === "fixed" ? presentMoney(terms.amountOffMinor, terms.currency) : null,
    duration: coupon.duration,
    duration_periods: coupon.durationPeriods,
  };
}

export const discountSchema = z
  .object({
    id: z.uuid(),
    coupon_id: z.uuid(),
    coupon_code: z.string(),
    ...couponTermsShape,
    periods_applied: z.number().int().describe("Periods this discount has already been taken off"),
    applied_at: timestamp,
  })
  .meta({ id: "Discount" });

export type DiscountBody = z.infer<typeof discountSchema>;

export function presentDiscount(discount: LiveDiscount): DiscountBody {
  return {
    id: discount.id,
    coupon_id: discount.coupon.id,
    coupon_code: discount.coupon.code,
    ...presentTerms(discount.coupon),
    periods_applied: discount.periodsApplied,
    applied_at: iso(discount.appliedAt),
  };
}
