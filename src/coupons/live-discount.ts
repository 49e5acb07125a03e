import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db, Tx } from "../db/index.js";
import { coupons, subscriptionDiscounts } from "../db/schema/index.js";
import { type StoredCoupon, toStoredCoupon } from "./coupon-record.js";

/** A subscription's live discount (ended_at null): the redemption and the coupon's terms. */
export interface LiveDiscount {
  readonly id: string;
  readonly subscriptionId: string;
  readonly coupon: StoredCoupon;
  readonly appliedAt: Date;
  readonly periodsApplied: number;
  readonly actor: string;
}

/** The live discount of each of these subscriptions that has one, by subscription id. */
export async function liveDiscounts(
  db: Db | Tx,
  subscriptionIds: readonly string[],
): Promise<Map<string, LiveDiscount>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await db
    .select({ discount: subscriptionDiscounts, coupon: coupons })
    .from(subscriptionDiscounts)
    .innerJoin(coupons, eq(coupons.id, subscriptionDiscounts.couponId))
    .where(
      and(
        inArray(subscriptionDiscounts.subscriptionId, [...subscriptionIds]),
        isNull(subscriptionDiscounts.endedAt),
      ),
    );
  return new Map(
    rows.map(({ discount, coupon }) => [
      discount.subscriptionId,
      {
        id: discount.id,
        subscriptionId: discount.subscriptionId,
        coupon: toStoredCoupon(coupon),
        appliedAt: discount.appliedAt,
        periodsApplied: discount.periodsApplied,
        actor: discount.actor,
      },
    ]),
  );
}

export async function liveDiscount(db: Db | Tx, subscriptionId: string): Promise<LiveDiscount | null> {
  return (await liveDiscounts(db, [subscriptionId])).get(subscriptionId) ?? null;
}
