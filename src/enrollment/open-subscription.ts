import { and, desc, eq, ne } from "drizzle-orm";
import type { SubscriptionState } from "../billing/index.js";
import type { Db, Tx } from "../db/index.js";
import { subscriptions } from "../db/schema/index.js";

/**
 * Rule: a customer holds one subscription to a plan at a time. Every subscription that is not
 * canceled counts: pending_enrollment (its checkout may still be paid), trialing, active, past_due,
 * unpaid (a debt is open) and paused. Enrolling again is refused (API, `billing enroll`) or
 * reported `existing` (`billing enroll --csv`) unless a second subscription is asked for.
 *
 * The newest such subscription, or undefined. Inside enroll()'s transaction, which holds the
 * customer's row lock, two enrolments of one customer cannot both find none.
 */
export async function findOpenSubscription(
  db: Db | Tx,
  customerId: string,
  planId: string,
): Promise<{ id: string; status: SubscriptionState } | undefined> {
  const [subscription] = await db
    .select({ id: subscriptions.id, status: subscriptions.status })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.customerId, customerId),
        eq(subscriptions.planId, planId),
        ne(subscriptions.status, "canceled"),
      ),
    )
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return subscription;
}
