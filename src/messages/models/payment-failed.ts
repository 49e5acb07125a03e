import { z } from "zod";
import { chargeWithPlan } from "./rows.js";
import { type ModelLoader, optional, readData } from "./source.js";

/**
 * payment_failed: a card payment was declined (one notice per charge, however many attempts
 * fail). It says why, when the next attempt comes (the charge's next_attempt_at), and how to fix
 * it: the payment link when the subscription pays by link, else a link to give a new card, as long
 * as the subscription has not ended. It no longer applies once the charge was paid or canceled.
 */
export const paymentFailedModel: ModelLoader = async (ctx, source) => {
  const chargeId = source.chargeId ?? source.event.chargeId;
  if (chargeId === null) return { suppressed: "the event names no charge" };
  const charge = await chargeWithPlan(ctx.db, chargeId);
  if (!charge) return { suppressed: `charge ${chargeId} not found` };
  if (charge.status === "paid" || charge.status === "canceled") {
    return { suppressed: `the charge was ${charge.status} since` };
  }
  const data = readData({ description: optional(z.string().min(1)) }, source.event.data);
  const fix =
    charge.collectionMethod === "send_payment_link"
      ? { fixKind: "payment_link" as const, fixUrl: ctx.links.paymentLink(chargeId) }
      : charge.subscriptionStatus === "canceled"
        ? { fixKind: null, fixUrl: null }
        : { fixKind: "new_card" as const, fixUrl: ctx.links.newCard(charge.subscriptionId) };
  const retrying = charge.status === "retrying" || charge.status === "scheduled";
  return {
    model: {
      kind: "payment_failed",
      amount: { minor: charge.amountMinor, currency: charge.currency },
      planName: charge.planName,
      reason: charge.lastDeclineDescription ?? data.description ?? null,
      ...fix,
      nextAttemptAt: retrying && charge.nextAttemptAt !== null ? charge.nextAttemptAt.toISOString() : null,
    },
  };
};
