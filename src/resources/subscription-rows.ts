import { and, eq, inArray } from "drizzle-orm";
// The module itself, not the coupons index: a read (`billing subscriptions list`) loads what it
// reads, not the redemption services and what they import (cancellation, queues, the gateway).
import { type LiveDiscount, liveDiscounts } from "../coupons/live-discount.js";
import type { Db, Tx } from "../db/index.js";
import { planChanges, type subscriptions } from "../db/schema/index.js";

/**
 * A subscription as it is shown (API, CLI, webhooks): its row, its live discount and its scheduled
 * plan change.
 */
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export interface ScheduledPlanChange {
  id: string;
  toPlanId: string;
  toQuantity: number;
  effectiveAt: Date;
}

export type SubscriptionView = SubscriptionRow & {
  discount: LiveDiscount | null;
  scheduledPlanChange: ScheduledPlanChange | null;
};

async function scheduledPlanChanges(
  db: Db | Tx,
  ids: readonly string[],
): Promise<Map<string, ScheduledPlanChange>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: planChanges.id,
      subscriptionId: planChanges.subscriptionId,
      toPlanId: planChanges.toPlanId,
      toQuantity: planChanges.toQuantity,
      effectiveAt: planChanges.effectiveAt,
    })
    .from(planChanges)
    .where(and(inArray(planChanges.subscriptionId, [...ids]), eq(planChanges.status, "scheduled")));
  return new Map(rows.map(({ subscriptionId, ...change }) => [subscriptionId, change]));
}

/** These subscription rows as views: two queries whatever their number. */
export async function subscriptionViews<Row extends SubscriptionRow>(
  db: Db | Tx,
  rows: Row[],
): Promise<(Row & SubscriptionView)[]> {
  const ids = rows.map((row) => row.id);
  const [discounts, changes] = await Promise.all([liveDiscounts(db, ids), scheduledPlanChanges(db, ids)]);
  return rows.map((row) => ({
    ...row,
    discount: discounts.get(row.id) ?? null,
    scheduledPlanChange: changes.get(row.id) ?? null,
  }));
}
