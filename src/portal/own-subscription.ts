import { and, eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { plans, subscriptions } from "../db/schema/index.js";

/**
 * Rule: every portal action names a subscription in its form, and acts only when that subscription
 * belongs to the session's customer; any other id is answered as if it did not exist.
 */
export interface OwnSubscription {
  id: string;
  status: string;
  cancelAtPeriodEnd: boolean;
  planId: string;
  currency: string;
}

/** The customer's subscription with this id, or null when it is not theirs (or not a subscription). */
export async function ownSubscription(
  ctx: Pick<EngineContext, "db">,
  customerId: string,
  subscriptionId: string,
): Promise<OwnSubscription | null> {
  const [row] = await ctx.db
    .select({
      id: subscriptions.id,
      status: subscriptions.status,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      planId: subscriptions.planId,
      currency: plans.currency,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.customerId, customerId)));
  return row ?? null;
}
