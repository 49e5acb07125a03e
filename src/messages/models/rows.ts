import { eq } from "drizzle-orm";
import type { Db } from "../../db/index.js";
import { charges, plans, subscriptions } from "../../db/schema/index.js";

/**
 * The rows most messages are about, read as they are now: a charge with its plan and
 * subscription, or a subscription with a plan (its own, or the one an event names).
 */

export async function chargeWithPlan(db: Db, chargeId: string) {
  const [row] = await db
    .select({
      status: charges.status,
      amountMinor: charges.amountMinor,
      currency: charges.currency,
      periodStart: charges.periodStart,
      periodEnd: charges.periodEnd,
      nextAttemptAt: charges.nextAttemptAt,
      lastDeclineDescription: charges.lastDeclineDescription,
      planName: plans.name,
      subscriptionId: subscriptions.id,
      subscriptionStatus: subscriptions.status,
      collectionMethod: subscriptions.collectionMethod,
    })
    .from(charges)
    .innerJoin(plans, eq(plans.id, charges.planId))
    .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
    .where(eq(charges.id, chargeId));
  return row ?? null;
}

export async function subscriptionWithPlan(db: Db, subscriptionId: string, planId?: string) {
  const [row] = await db
    .select({
      customerId: subscriptions.customerId,
      status: subscriptions.status,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      nextBillingAt: subscriptions.nextBillingAt,
      trialEnd: subscriptions.trialEnd,
      canceledAt: subscriptions.canceledAt,
      paymentMethodId: subscriptions.paymentMethodId,
      collectionMethod: subscriptions.collectionMethod,
      planName: plans.name,
      planAmountMinor: plans.amountMinor,
      planCurrency: plans.currency,
    })
    .from(subscriptions)
    .innerJoin(plans, planId === undefined ? eq(plans.id, subscriptions.planId) : eq(plans.id, planId))
    .where(eq(subscriptions.id, subscriptionId));
  return row ?? null;
}

/**
 * What a notice before money moves announces: the amount its event priced (the coming charge,
 * after discount and credit), or the plan's price when the event carries none.
 */
export function announcedAmount(
  data: { amount_minor?: number | undefined; currency?: string | undefined },
  subscription: { planAmountMinor: number; planCurrency: string },
): { minor: number; currency: string } {
  return data.amount_minor !== undefined && data.currency !== undefined
    ? { minor: data.amount_minor, currency: data.currency }
    : { minor: subscription.planAmountMinor, currency: subscription.planCurrency };
}
