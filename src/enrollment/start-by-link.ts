import { eq } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { Tx } from "../db/index.js";
import { subscriptions } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../events/index.js";
import { startSubscription } from "./complete-enrollment.js";

/**
 * Rule: a subscription still waiting for its card (pending_enrollment: the checkout that saves it
 * failed, e.g. a Qatar debit card that cannot recur, or was never paid) may start paying by link
 * instead of being a dead end. Inside the caller's transaction, with the subscription locked FOR
 * UPDATE and read after the lock: it becomes send_payment_link and starts as a card would have
 * started it (trialing, or active with its first charge due now). Its open enrolment is left as it
 * is: should that checkout be paid after all, the card it saves turns the subscription back to
 * charge_automatically (complete-enrollment.ts). Returns false when it is no longer pending.
 */
export async function startByLink(
  tx: Tx,
  subscriptionId: string,
  subjects: { actor: string; occurredAt: DateTime },
): Promise<boolean> {
  const [subscription] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId))
    .for("update");
  if (subscription?.status !== "pending_enrollment") return false;
  await tx
    .update(subscriptions)
    .set({ collectionMethod: "send_payment_link" })
    .where(eq(subscriptions.id, subscription.id));
  const common = { ...subjects, subscriptionId: subscription.id, customerId: subscription.customerId };
  await recordEvent(tx, {
    ...common,
    type: EVENT_TYPES.subscriptionCollectionMethodChanged,
    data: { from: subscription.collectionMethod, to: "send_payment_link", before_enrollment: true },
  });
  await startSubscription(tx, { ...subscription, collectionMethod: "send_payment_link" }, null, common);
  return true;
}
