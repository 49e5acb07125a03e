import { eq } from "drizzle-orm";
import { z } from "zod";
import { lockSubscription } from "../cancellation/index.js";
import type { EngineContext } from "../context/index.js";
import { subscriptionDiscounts } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { CouponError } from "./errors.js";
import { type LiveDiscount, liveDiscount } from "./live-discount.js";

/**
 * removeDiscount: ends a subscription's live discount now (ended_at on the billing clock), under
 * the subscription's row lock, so the scheduler pricing a period either sees it or does not. The
 * periods already discounted stay discounted; the coupon's redemption is not given back. Refused
 * with CouponError `no_discount` when none is live.
 */

export const removeDiscountInput = z.object({
  subscriptionId: z.uuid(),
  actor: z.string().trim().min(1).max(200),
});

export async function removeDiscount(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: z.input<typeof removeDiscountInput>,
): Promise<LiveDiscount & { endedAt: Date }> {
  const request = removeDiscountInput.parse(input);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const subscription = await lockSubscription(tx, request.subscriptionId);
    const discount = await liveDiscount(tx, subscription.id);
    if (!discount) {
      throw new CouponError("no_discount", `subscription ${subscription.id} has no discount`, {
        subscription_id: subscription.id,
      });
    }
    await tx
      .update(subscriptionDiscounts)
      .set({ endedAt: now.toJSDate() })
      .where(eq(subscriptionDiscounts.id, discount.id));
    await recordEvent(tx, {
      type: "subscription.discount_removed",
      actor: request.actor,
      occurredAt: now,
      subscriptionId: subscription.id,
      customerId: subscription.customerId,
      data: {
        discount_id: discount.id,
        coupon_id: discount.coupon.id,
        coupon_code: discount.coupon.code,
        periods_applied: discount.periodsApplied,
      },
    });
    return { ...discount, endedAt: now.toJSDate() };
  });
}
