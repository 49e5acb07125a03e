import { z } from "zod";
import { COUPON_DURATIONS, DISCOUNT_TYPES } from "../../billing/index.js";
import type { LiveDiscount, StoredCoupon } from "../../coupons/index.js";
import { iso, moneySchema, pageOf, pageQuery, presentMoney, timestamp } from "./common.js";

/** Coupons, and the discount a subscription holds from one. */

/** What a coupon takes off each period it covers: a percent, or an amount in one currency. */
const couponTermsShape = {
  discount_type: z.enum(DISCOUNT_TYPES),
  percent_off: z.number().int().nullable().describe("Whole percent (percentage coupons)"),
  amount_off: moneySchema.nullable().describe("Taken off each period's price (fixed coupons)"),
  duration: z.enum(COUPON_DURATIONS),
  duration_periods: z.number().int().nullable().describe("How many periods (repeating only)"),
};

function presentTerms(coupon: StoredCoupon) {
  const { terms } = coupon;
  return {
    discount_type: terms.type,
    percent_off: terms.type === "percentage" ? terms.percentOff : null,
    amount_off: terms.type === "fixed" ? presentMoney(terms.amountOffMinor, terms.currency) : null,
    duration: coupon.duration,
    duration_periods: coupon.durationPeriods,
  };
}

export const couponSchema = z
  .object({
    id: z.uuid(),
    code: z.string(),
    name: z.string().nullable(),
    ...couponTermsShape,
    max_redemptions: z.number().int().nullable(),
    redemptions: z.number().int(),
    expires_at: timestamp.nullable().describe("Billing clock: no redemption at or after it"),
    archived_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "Coupon" });

export function presentCoupon(coupon: StoredCoupon): z.infer<typeof couponSchema> {
  return {
    id: coupon.id,
    code: coupon.code,
    name: coupon.name,
    ...presentTerms(coupon),
    max_redemptions: coupon.maxRedemptions,
    redemptions: coupon.redemptions,
    expires_at: iso(coupon.expiresAt),
    archived_at: iso(coupon.archivedAt),
    created_at: iso(coupon.createdAt),
  };
}

export const couponListQuery = pageQuery.extend({
  include_archived: z.stringbool().default(false).describe("Also list archived coupons"),
});

export const couponPage = pageOf(couponSchema);

/** Coupon ids are uuids and codes are not, so one path parameter takes either. */
export const couponParams = z.object({
  id: z.string().min(1).max(100).describe("The coupon's id, or its code"),
});

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

export const applyDiscountBody = z.strictObject({
  coupon: z
    .string({ error: "coupon must be a coupon code" })
    .trim()
    .min(1, { error: "coupon must not be empty" })
    .max(64, { error: "coupon must be at most 64 characters" })
    .describe("The coupon's code (case does not matter)"),
});
