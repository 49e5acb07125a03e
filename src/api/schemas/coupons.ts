import { z } from "zod";
import type { StoredCoupon } from "../../coupons/index.js";
import { couponTermsShape, presentTerms } from "../../resources/discount.js";
import { iso, pageOf, pageQuery, timestamp } from "./common.js";

/** Coupons; the discount a subscription holds from one is src/resources/discount.ts. */

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

export const applyDiscountBody = z.strictObject({
  coupon: z
    .string({ error: "coupon must be a coupon code" })
    .trim()
    .min(1, { error: "coupon must not be empty" })
    .max(64, { error: "coupon must be at most 64 characters" })
    .describe("The coupon's code (case does not matter)"),
});
