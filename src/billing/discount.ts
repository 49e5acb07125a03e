import type { DateTime } from "luxon";
import { mulDivHalfUp } from "./rounding.js";

/**
 * Coupons and what a period is charged, pure. Rules:
 * - a percentage coupon takes round_half_up(price × percent ÷ 100), the rounding the gateway
 *   applies to an invoice's percentage discount, so our charge and its invoice agree to the unit;
 *   a fixed coupon takes its amount, at most the price;
 * - the discount comes off the price first, then the subscription's credit off what remains;
 * - a charge is never negative; a charge of zero is paid without calling the gateway;
 * - `once` discounts one period, `repeating` N periods, `forever` every period.
 */

export const DISCOUNT_TYPES = ["percentage", "fixed"] as const;
export const COUPON_DURATIONS = ["once", "repeating", "forever"] as const;
export type CouponDuration = (typeof COUPON_DURATIONS)[number];

export type CouponTerms =
  | { readonly type: "percentage"; readonly percentOff: number }
  | { readonly type: "fixed"; readonly amountOffMinor: number; readonly currency: string };

/** A stored coupon's columns as they come from a row, in either naming. */
export interface CouponTermFields {
  readonly discountType: "percentage" | "fixed";
  readonly percentOff: number | null;
  readonly amountOffMinor: number | null;
  readonly currency: string | null;
}

/** The terms a stored coupon's columns hold; the table's checks make anything else a corrupt row. */
export function couponTerms(fields: CouponTermFields): CouponTerms {
  if (fields.discountType === "percentage" && fields.percentOff !== null) {
    return { type: "percentage", percentOff: fields.percentOff };
  }
  if (fields.discountType === "fixed" && fields.amountOffMinor !== null && fields.currency !== null) {
    return { type: "fixed", amountOffMinor: fields.amountOffMinor, currency: fields.currency };
  }
  throw new RangeError(`a ${fields.discountType} coupon without its terms`);
}

export interface CouponDurationTerms {
  readonly duration: CouponDuration;
  /** `repeating` only. */
  readonly durationPeriods: number | null;
}

export interface PeriodPrice {
  readonly priceMinor: number;
  /** The live discount and how many periods it has already discounted. */
  readonly discount: (CouponTerms & CouponDurationTerms & { readonly periodsApplied: number }) | null;
  readonly creditMinor: number;
}

export interface PeriodCharge {
  readonly amountMinor: number;
  readonly discountMinor: number;
  /** The coupon's percent when a percentage discount applied (the invoice carries it). */
  readonly discountPercent: number | null;
  readonly creditAppliedMinor: number;
  readonly creditLeftMinor: number;
  /** The discount applied to this period; and whether this was its last one. */
  readonly discountApplied: boolean;
  readonly discountEnds: boolean;
}

export function discountMinor(terms: CouponTerms, priceMinor: number): number {
  if (terms.type === "percentage") return mulDivHalfUp(priceMinor, terms.percentOff, 100);
  return Math.min(terms.amountOffMinor, priceMinor);
}

/** Whether a discount that already covered `periodsApplied` periods covers one more. */
export function discountCoversNext(terms: CouponDurationTerms, periodsApplied: number): boolean {
  switch (terms.duration) {
    case "forever":
      return true;
    case "once":
      return periodsApplied < 1;
    case "repeating":
      return periodsApplied < (terms.durationPeriods ?? 0);
  }
}

export function chargeForPeriod(input: PeriodPrice): PeriodCharge {
  const { priceMinor, discount } = input;
  for (const [name, value] of [
    ["price", priceMinor],
    ["credit", input.creditMinor],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`${name} must be whole minor units, got ${value}`);
  }
  const applies = discount !== null && discountCoversNext(discount, discount.periodsApplied);
  const off = applies ? discountMinor(discount, priceMinor) : 0;
  const afterDiscount = priceMinor - off;
  const creditAppliedMinor = Math.min(input.creditMinor, afterDiscount);
  return {
    amountMinor: afterDiscount - creditAppliedMinor,
    discountMinor: off,
    discountPercent: applies && discount.type === "percentage" && off > 0 ? discount.percentOff : null,
    creditAppliedMinor,
    creditLeftMinor: input.creditMinor - creditAppliedMinor,
    discountApplied: applies,
    discountEnds: applies && !discountCoversNext(discount, discount.periodsApplied + 1),
  };
}

export type CouponRefusal = "expired" | "archived" | "exhausted" | "currency_mismatch";

export interface CouponState {
  readonly terms: CouponTerms;
  readonly expiresAt: DateTime | null;
  readonly archived: boolean;
  readonly redemptions: number;
  readonly maxRedemptions: number | null;
}

/** Why a coupon cannot be redeemed now on a subscription in `currency`, or null when it can. */
export function couponRefusal(coupon: CouponState, now: DateTime, currency: string): CouponRefusal | null {
  if (coupon.archived) return "archived";
  if (coupon.expiresAt && now >= coupon.expiresAt) return "expired";
  if (coupon.maxRedemptions !== null && coupon.redemptions >= coupon.maxRedemptions) return "exhausted";
  if (coupon.terms.type === "fixed" && coupon.terms.currency !== currency) return "currency_mismatch";
  return null;
}
