import { eq } from "drizzle-orm";
import { z } from "zod";
import { lockSubscription } from "../cancellation/index.js";
import type { EngineContext } from "../context/index.js";
import { paymentMethods, plans } from "../db/schema/index.js";
import { CouponError } from "./errors.js";
import { type LiveDiscount, liveDiscount } from "./live-discount.js";
import { lockRedeemableCoupon, redeemCoupon } from "./redeem-coupon.js";

/**
 * applyCoupon: redeems a coupon on an existing subscription, in one transaction under the
 * subscription's row lock (then the coupon's: the order every redemption takes). Refused with
 * CouponError: a canceled subscription; one that already has a live discount (the caller removes
 * it first, so replacing a discount is always said out loud); and whatever lockRedeemableCoupon
 * refuses (unknown code, archived, expired, exhausted, another currency, a recurring card token).
 * The discount comes off each period charged from then on; the scheduler counts the periods.
 */

export const applyCouponInput = z.object({
  subscriptionId: z.uuid(),
  code: z.string().trim().min(1, { error: "coupon must not be empty" }),
  actor: z.string().trim().min(1).max(200),
});

export type ApplyCouponInput = z.input<typeof applyCouponInput>;

export async function applyCoupon(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: ApplyCouponInput,
): Promise<LiveDiscount> {
  const request = applyCouponInput.parse(input);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const subscription = await lockSubscription(tx, request.subscriptionId);
    if (subscription.status === "canceled") {
      throw new CouponError("subscription_canceled", `subscription ${subscription.id} is canceled`, {
        subscription_id: subscription.id,
      });
    }
    const existing = await liveDiscount(tx, subscription.id);
    if (existing) {
      throw new CouponError(
        "discount_exists",
        `subscription ${subscription.id} already has a discount (coupon ${existing.coupon.code}); remove it first`,
        { subscription_id: subscription.id, discount_id: existing.id, coupon: existing.coupon.code },
      );
    }
    const [plan] = await tx.select().from(plans).where(eq(plans.id, subscription.planId));
    if (!plan) throw new Error(`subscription ${subscription.id} has no plan ${subscription.planId}`);
    const [card] = subscription.paymentMethodId
      ? await tx
          .select({ kind: paymentMethods.kind })
          .from(paymentMethods)
          .where(eq(paymentMethods.id, subscription.paymentMethodId))
      : [];
    const coupon = await lockRedeemableCoupon(
      tx,
      request.code,
      {
        planId: plan.id,
        currency: plan.currency,
        billingMode: plan.billingMode,
        cardKind: card?.kind ?? null,
      },
      now,
    );
    const discount = await redeemCoupon(tx, { coupon, subscription, actor: request.actor, now });
    return {
      id: discount.id,
      subscriptionId: subscription.id,
      coupon: { ...coupon, redemptions: coupon.redemptions + 1 },
      appliedAt: discount.appliedAt,
      periodsApplied: discount.periodsApplied,
      actor: discount.actor,
    };
  });
}
