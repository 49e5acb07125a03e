import { type CouponRefusal, Refusal } from "../billing/index.js";

export type CouponErrorCode =
  | "coupon_not_found"
  | "coupon_exists"
  | CouponRefusal
  | "coupon_needs_autosave"
  | "subscription_canceled"
  | "discount_exists"
  | "no_discount";

/** A coupon request the coupons services refuse; details name the coupon, subscription or discount. */
export class CouponError extends Refusal<CouponErrorCode> {
  override name = "CouponError";
}

const REFUSALS: Record<CouponRefusal, string> = {
  expired: "has expired",
  archived: "is archived",
  exhausted: "has no redemptions left",
  currency_mismatch: "is a fixed amount in another currency than the subscription's plan",
};

export function refusalError(refusal: CouponRefusal, code: string, currency: string): CouponError {
  const why = refusal === "currency_mismatch" ? `${REFUSALS[refusal]} (${currency})` : REFUSALS[refusal];
  return new CouponError(refusal, `coupon ${code} ${why}`, { coupon: code });
}

/**
 * A recurring card token cannot be charged a discounted amount: the gateway stored the enrolled
 * amount with the token, and GetnewPayment with a recurring token takes no amount.
 */
export function needsAutosaveError(code: string, why: string): CouponError {
  return new CouponError(
    "coupon_needs_autosave",
    `coupon ${code} cannot be used: ${why}. A recurring card token is charged the amount enrolled with it ` +
      "(the gateway's GetnewPayment takes no amount for it), so only subscriptions charged with an autosave " +
      "card (plan billing_mode autosave) can be charged a discounted amount",
    { coupon: code },
  );
}
