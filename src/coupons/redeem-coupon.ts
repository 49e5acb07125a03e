import { eq, sql } from "drizzle-orm";
import type { DateTime } from "luxon";
import { type BillingMode, couponRefusal } from "../billing/index.js";
import { SqlState, type Tx, violates } from "../db/index.js";
import { coupons, subscriptionDiscounts } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { normaliseCouponCode } from "./coupon-input.js";
import { couponState, type StoredCoupon, toStoredCoupon } from "./coupon-record.js";
import { CouponError, needsAutosaveError, refusalError } from "./errors.js";

/**
 * Redeeming a coupon on a subscription, the one way both paths take (at enrolment, in the
 * transaction that creates the subscription; later, by applyCoupon under the subscription's lock).
 * Rules:
 * - the coupon row is locked (for update) while it is checked and counted, so two redemptions of
 *   its last use at once are taken one after the other: the second sees it exhausted;
 * - it is refused when couponRefusal says so on the billing clock (archived, expired, exhausted, a
 *   fixed amount in another currency than the plan's);
 * - and when the subscription is charged with a recurring card token (its plan's billing_mode, or
 *   its card): GetnewPayment charges a recurring token the amount enrolled with it and takes none,
 *   so only autosave cards can be charged a discounted amount.
 */

export interface RedemptionTarget {
  readonly planId: string;
  /** The plan's currency, which a fixed coupon must share. */
  readonly currency: string;
  readonly billingMode: BillingMode;
  /** The kind of the subscription's card; null before one is saved. */
  readonly cardKind: BillingMode | null;
}

/** Locks the coupon `code` names and checks this subscription may redeem it now; throws CouponError. */
export async function lockRedeemableCoupon(
  tx: Tx,
  code: string,
  target: RedemptionTarget,
  now: DateTime,
): Promise<StoredCoupon> {
  const normalised = normaliseCouponCode(code);
  const [row] = await tx.select().from(coupons).where(eq(coupons.code, normalised)).for("update");
  if (!row)
    throw new CouponError("coupon_not_found", `no coupon with code ${normalised}`, { coupon: normalised });
  const coupon = toStoredCoupon(row);
  if (target.billingMode === "recurring") {
    throw needsAutosaveError(coupon.code, `plan ${target.planId} charges a recurring card token`);
  }
  if (target.cardKind === "recurring") {
    throw needsAutosaveError(coupon.code, "the subscription's card is a recurring token");
  }
  const refusal = couponRefusal(couponState(coupon), now, target.currency);
  if (refusal) throw refusalError(refusal, coupon.code, target.currency);
  return coupon;
}

export type DiscountRow = typeof subscriptionDiscounts.$inferSelect;

/**
 * Redeems a coupon lockRedeemableCoupon returned, in the same transaction: counts the redemption
 * and makes it the subscription's live discount, with its event. A subscription holds one live
 * discount; the caller checks under the subscription's lock, and the unique index backs it.
 */
export async function redeemCoupon(
  tx: Tx,
  input: {
    coupon: StoredCoupon;
    subscription: { id: string; customerId: string };
    actor: string;
    now: DateTime;
  },
): Promise<DiscountRow> {
  const { coupon, subscription, actor, now } = input;
  await tx
    .update(coupons)
    .set({ redemptions: sql`${coupons.redemptions} + 1` })
    .where(eq(coupons.id, coupon.id));
  let discount: DiscountRow | undefined;
  try {
    [discount] = await tx
      .insert(subscriptionDiscounts)
      .values({ subscriptionId: subscription.id, couponId: coupon.id, appliedAt: now.toJSDate(), actor })
      .returning();
  } catch (error) {
    if (violates(error, SqlState.uniqueViolation, "subscription_discounts_one_live")) {
      throw new CouponError("discount_exists", `subscription ${subscription.id} already has a discount`, {
        subscription_id: subscription.id,
      });
    }
    throw error;
  }
  if (!discount) throw new Error("discount was not stored");
  await recordEvent(tx, {
    type: "subscription.discount_applied",
    actor,
    occurredAt: now,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: {
      discount_id: discount.id,
      coupon_id: coupon.id,
      coupon_code: coupon.code,
      redemptions: coupon.redemptions + 1,
    },
  });
  return discount;
}
