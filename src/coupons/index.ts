/** Coupons: codes a merchant hands out, redeemed as a discount on a subscription's periods. */
export { type ApplyCouponInput, applyCoupon, applyCouponInput } from "./apply-coupon.js";
export { archiveCoupon } from "./archive-coupon.js";
export {
  COUPON_CODE,
  type CouponInput,
  CouponInputError,
  type CouponInputOptions,
  couponInputSchema,
  MAX_DURATION_PERIODS,
  normaliseCouponCode,
  parseCouponInput,
} from "./coupon-input.js";
export {
  type CouponRow,
  couponState,
  type StoredCoupon,
  toStoredCoupon,
} from "./coupon-record.js";
export { createCoupon } from "./create-coupon.js";
export { CouponError, type CouponErrorCode } from "./errors.js";
export { getCoupon } from "./get-coupon.js";
export { type CouponPage, type ListCouponsOptions, listCoupons, listCouponsOptions } from "./list-coupons.js";
export { type LiveDiscount, liveDiscount, liveDiscounts } from "./live-discount.js";
export {
  type DiscountRow,
  lockRedeemableCoupon,
  type RedemptionTarget,
  redeemCoupon,
} from "./redeem-coupon.js";
export { releaseRedemption } from "./release-redemption.js";
export { removeDiscount, removeDiscountInput } from "./remove-discount.js";
