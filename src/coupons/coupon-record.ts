import { type CouponState, type CouponTerms, couponTerms } from "../billing/index.js";
import { toInstant } from "../clock/index.js";
import type { coupons } from "../db/schema/index.js";
import type { CouponInput } from "./coupon-input.js";

/** A stored coupon: its terms as the billing domain reads them, plus its bookkeeping. */

export type CouponRow = typeof coupons.$inferSelect;

export interface StoredCoupon extends CouponInput {
  readonly id: string;
  readonly redemptions: number;
  readonly archivedAt: Date | null;
  readonly createdAt: Date;
}

/** The row's terms; a corrupt row is named. */
function termsOf(row: CouponRow): CouponTerms {
  try {
    return couponTerms(row);
  } catch (error) {
    throw new Error(`coupon ${row.id}: ${(error as Error).message}`);
  }
}

export function toStoredCoupon(row: CouponRow): StoredCoupon {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    terms: termsOf(row),
    duration: row.duration,
    durationPeriods: row.durationPeriods,
    maxRedemptions: row.maxRedemptions,
    redemptions: row.redemptions,
    expiresAt: row.expiresAt,
    archivedAt: row.archivedAt,
    createdAt: row.createdAt,
  };
}

/** What couponRefusal reads. */
export function couponState(coupon: StoredCoupon): CouponState {
  return {
    terms: coupon.terms,
    expiresAt: coupon.expiresAt ? toInstant(coupon.expiresAt) : null,
    archived: coupon.archivedAt !== null,
    redemptions: coupon.redemptions,
    maxRedemptions: coupon.maxRedemptions,
  };
}
