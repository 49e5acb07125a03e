import { and, eq, isNull, sql } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { Tx } from "../db/index.js";
import { coupons, subscriptionDiscounts } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";

/**
 * Gives a redemption back when the subscription it was made for never started: enroll() redeems
 * the coupon with the new subscription, and a checkout the gateway refused cancels it at once.
 * Rule: only a discount that discounted no period is released (its live discount ends and the
 * coupon's count goes down by one), so a single-use coupon is not used up by a failed checkout.
 * Call it in the transaction that cancels the subscription, after locking it. Nothing when the
 * subscription has no such discount.
 */
export async function releaseRedemption(
  tx: Tx,
  input: { subscriptionId: string; customerId: string; actor: string; now: DateTime; reason: string },
): Promise<void> {
  const { subscriptionId, now } = input;
  const [ended] = await tx
    .update(subscriptionDiscounts)
    .set({ endedAt: now.toJSDate() })
    .where(
      and(
        eq(subscriptionDiscounts.subscriptionId, subscriptionId),
        isNull(subscriptionDiscounts.endedAt),
        eq(subscriptionDiscounts.periodsApplied, 0),
      ),
    )
    .returning();
  if (!ended) return;
  const [coupon] = await tx
    .update(coupons)
    .set({ redemptions: sql`${coupons.redemptions} - 1` })
    .where(eq(coupons.id, ended.couponId))
    .returning({ code: coupons.code });
  await recordEvent(tx, {
    type: "subscription.discount_removed",
    actor: input.actor,
    occurredAt: now,
    subscriptionId,
    customerId: input.customerId,
    data: {
      discount_id: ended.id,
      coupon_id: ended.couponId,
      coupon_code: coupon?.code ?? null,
      periods_applied: 0,
      redemption_released: true,
      reason: input.reason,
    },
  });
}
