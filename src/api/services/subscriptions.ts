import { and, asc, eq, gt, inArray, type SQL } from "drizzle-orm";
import type { SubscriptionState } from "../../billing/index.js";
// The module itself, not the coupons index: a read (`billing subscriptions list`) loads what it
// reads, not the redemption services and what they import (cancellation, queues, the gateway).
import { type LiveDiscount, liveDiscounts } from "../../coupons/live-discount.js";
import type { Db } from "../../db/index.js";
import { afterCursor } from "../../db/keyset.js";
import { events, planChanges, subscriptions } from "../../db/schema/index.js";
import { notFound } from "../problem.js";
import { type Page, type PageRequest, toPage } from "./page.js";

/** Reads of subscriptions and their event log for the merchant API. */

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export interface ScheduledPlanChange {
  id: string;
  toPlanId: string;
  toQuantity: number;
  effectiveAt: Date;
}

/** A subscription as it is shown: its row, its live discount and its scheduled plan change. */
export type SubscriptionView = SubscriptionRow & {
  discount: LiveDiscount | null;
  scheduledPlanChange: ScheduledPlanChange | null;
};

async function scheduledPlanChanges(
  db: Db,
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

async function withExtras(db: Db, rows: SubscriptionRow[]): Promise<SubscriptionView[]> {
  const ids = rows.map((row) => row.id);
  const [discounts, changes] = await Promise.all([liveDiscounts(db, ids), scheduledPlanChanges(db, ids)]);
  return rows.map((row) => ({
    ...row,
    discount: discounts.get(row.id) ?? null,
    scheduledPlanChange: changes.get(row.id) ?? null,
  }));
}

export async function findSubscription(db: Db, id: string): Promise<SubscriptionView> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (!row) throw notFound("subscription", id);
  const [view] = await withExtras(db, [row]);
  return view!;
}

export interface SubscriptionFilter extends PageRequest {
  status?: SubscriptionState | undefined;
  customer_id?: string | undefined;
}

export async function listSubscriptions(db: Db, filter: SubscriptionFilter): Promise<Page<SubscriptionView>> {
  const conditions: (SQL | undefined)[] = [
    filter.status === undefined ? undefined : eq(subscriptions.status, filter.status),
    filter.customer_id === undefined ? undefined : eq(subscriptions.customerId, filter.customer_id),
    afterCursor(subscriptions, filter.starting_after),
  ];
  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(...conditions))
    .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id))
    .limit(filter.limit + 1);
  const page = toPage(rows, filter.limit);
  return { ...page, data: await withExtras(db, page.data) };
}

/** The subscription's history, oldest first (the log's own order); the cursor is an event id. */
export async function listSubscriptionEvents(
  db: Db,
  subscriptionId: string,
  page: { limit: number; starting_after?: number | undefined },
): Promise<Page<EventRow>> {
  await findSubscription(db, subscriptionId);
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.subscriptionId, subscriptionId),
        page.starting_after === undefined ? undefined : gt(events.id, page.starting_after),
      ),
    )
    .orderBy(asc(events.id))
    .limit(page.limit + 1);
  return toPage(rows, page.limit);
}
