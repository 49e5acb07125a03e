import { and, count, eq, gte } from "drizzle-orm";
import { toInstant } from "../clock/index.js";
import type { Tx } from "../db/index.js";
import { chargeAttempts, charges, paymentMethods, plans, subscriptions } from "../db/schema/index.js";
import type { LockedCharge } from "./decide-outcome.js";

/**
 * Rule: one charge's rows are locked subscription first, then charge, for the rest of the caller's
 * drizzle transaction, as lock-charges.ts does for a batch: the scheduler and cancellation take the
 * subscription first too, so they queue up behind each other instead of deadlocking.
 */
export async function lockCharge(tx: Tx, chargeId: string): Promise<LockedCharge | null> {
  const [owner] = await tx
    .select({ subscriptionId: charges.subscriptionId })
    .from(charges)
    .where(eq(charges.id, chargeId));
  if (!owner) return null;
  const [subscription] = await tx
    .select({
      id: subscriptions.id,
      customerId: subscriptions.customerId,
      status: subscriptions.status,
      canceledAt: subscriptions.canceledAt,
      paymentMethodId: subscriptions.paymentMethodId,
      billingAnchor: subscriptions.billingAnchor,
      timezone: subscriptions.timezone,
      intervalUnit: plans.intervalUnit,
      intervalCount: plans.intervalCount,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      nextBillingAt: subscriptions.nextBillingAt,
      cardSavedAt: paymentMethods.createdAt,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
    .where(eq(subscriptions.id, owner.subscriptionId))
    .for("update", { of: subscriptions });
  const [charge] = await tx
    .select({
      id: charges.id,
      status: charges.status,
      firstFailedAt: charges.firstFailedAt,
      amountMinor: charges.amountMinor,
      currency: charges.currency,
    })
    .from(charges)
    .where(eq(charges.id, chargeId))
    .for("update");
  if (!subscription || !charge) return null;

  const declined = [eq(chargeAttempts.chargeId, chargeId), eq(chargeAttempts.status, "declined")];
  if (subscription.cardSavedAt) declined.push(gte(chargeAttempts.createdAt, subscription.cardSavedAt));
  const [declines] = await tx
    .select({ n: count() })
    .from(chargeAttempts)
    .where(and(...declined));

  return {
    charge: {
      id: charge.id,
      status: charge.status,
      firstFailedAt: charge.firstFailedAt && toInstant(charge.firstFailedAt),
      amountMinor: charge.amountMinor,
      currency: charge.currency,
    },
    subscription: {
      id: subscription.id,
      customerId: subscription.customerId,
      status: subscription.status,
      canceledAt: subscription.canceledAt && toInstant(subscription.canceledAt),
      paymentMethodId: subscription.paymentMethodId,
      billingAnchor: subscription.billingAnchor && toInstant(subscription.billingAnchor),
      timezone: subscription.timezone,
      interval: { unit: subscription.intervalUnit, count: subscription.intervalCount },
      currentPeriodEnd: subscription.currentPeriodEnd && toInstant(subscription.currentPeriodEnd),
      nextBillingAt: subscription.nextBillingAt && toInstant(subscription.nextBillingAt),
    },
    declinesOnCard: declines?.n ?? 0,
  };
}
