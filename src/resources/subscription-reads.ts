import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import type { SubscriptionState } from "../billing/index.js";
import type { Db } from "../db/index.js";
import { afterCursor, type Page, type PageRequest, toPage } from "../db/keyset.js";
import { events, subscriptions } from "../db/schema/index.js";
// The problem itself, not the problems index: that one maps every service's errors.
import { notFound } from "../problems/problem.js";
import { type SubscriptionView, subscriptionViews } from "./subscription-rows.js";

/**
 * Reads of subscriptions and their event log for the merchant API and the CLI: each subscription
 * as presentSubscription shows it; an unknown id is a 404 problem.
 */

export type EventRow = typeof events.$inferSelect;

export async function findSubscription(db: Db, id: string): Promise<SubscriptionView> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (!row) throw notFound("subscription", id);
  const [view] = await subscriptionViews(db, [row]);
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
  return { ...page, data: await subscriptionViews(db, page.data) };
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
