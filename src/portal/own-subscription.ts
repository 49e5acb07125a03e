import { and, eq } from "drizzle-orm";
import type { IntervalUnit } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { paymentMethods, plans, subscriptions } from "../db/schema/index.js";

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
  amountMinor: number;
  intervalUnit: IntervalUnit;
  intervalCount: number;
  cardKind: "recurring" | "autosave" | null;
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
      amountMinor: plans.amountMinor,
      intervalUnit: plans.intervalUnit,
      intervalCount: plans.intervalCount,
      cardKind: paymentMethods.kind,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.customerId, customerId)));
  return row ?? null;
}
