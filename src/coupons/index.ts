/** Coupons: codes a merchant hands out, redeemed as a discount on a subscription's periods. */
export { applyCoupon } from "./apply-coupon.js";
export { archiveCoupon } from "./archive-coupon.js";
export { CouponInputError, couponInputSchema } from "./coupon-input.js";
export type { StoredCoupon } from "./coupon-record.js";
export { createCoupon } from "./create-coupon.js";
export { CouponError, type CouponErrorCode } from "./errors.js";
export { getCoupon } from "./get-coupon.js";
export { listCoupons } from "./list-coupons.js";
export { type LiveDiscount, liveDiscounts } from "./live-discount.js";
export { type DiscountRow, lockRedeemableCoupon, redeemCoupon } from "./redeem-coupon.js";
export { releaseRedemption } from "./release-redemption.js";
export { removeDiscount } from "./remove-discount.js";
