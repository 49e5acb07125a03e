import { eq } from "drizzle-orm";
import type { BillingMode, CollectionMethod, SubscriptionState } from "../billing/index.js";
import { SubscriptionNotFoundError } from "../cancellation/index.js";
import type { Tx } from "../db/index.js";
import { paymentMethods, plans, subscriptions } from "../db/schema/index.js";

/**
 * Rule: every change to a subscription's add-ons is made under the subscription's row lock (`for
 * update`), the lock the scheduler's billing and every other change take, so a period is billed
 * either before or after the change, never with half of it. Read with it: what the add-on rules
 * weigh (its status, its plan's currency and billing mode, how it pays and the card it pays with).
 */
export interface AddonTarget {
  readonly id: string;
  readonly customerId: string;
  readonly status: SubscriptionState;
  readonly planId: string;
  /** The plan's currency: the subscription is billed in it, add-ons included. */
  readonly currency: string;
  readonly billingMode: BillingMode;
  readonly collectionMethod: CollectionMethod;
  /** The kind of the card it is charged with; null before one is saved. */
  readonly cardKind: BillingMode | null;
}

export async function lockAddonTarget(tx: Tx, subscriptionId: string): Promise<AddonTarget> {
  const [row] = await tx
    .select({
      id: subscriptions.id,
      customerId: subscriptions.customerId,
      status: subscriptions.status,
      planId: subscriptions.planId,
      currency: plans.currency,
      billingMode: plans.billingMode,
      collectionMethod: subscriptions.collectionMethod,
      cardKind: paymentMethods.kind,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
    .where(eq(subscriptions.id, subscriptionId))
    .for("update", { of: subscriptions });
  if (!row) throw new SubscriptionNotFoundError(subscriptionId);
  return row;
}
