import { DateTime } from "luxon";
import { z } from "zod";
import { announcedAmount, subscriptionWithPlan } from "./rows.js";
import { isoText, localDate, type ModelLoader, optional, readData } from "./source.js";

/**
 * trial_ending: the trial ends on a date, after which the plan's price is charged to the saved
 * card, or a card must be added first. What the event says is read first (trial_end, amount_minor
 * and currency, plan_id, has_card), the subscription and its plan filling in the rest. A
 * subscription that pays by link is never told its card will be charged: its charge comes as a link. It no
 * longer applies once the subscription left its trial, is set to cancel, or the trial has ended.
 */
export const trialEndingModel: ModelLoader = async (ctx, source) => {
  const subscriptionId = source.event.subscriptionId;
  if (subscriptionId === null) return { suppressed: "the event names no subscription" };
  const data = readData(
    {
      trial_end: isoText,
      amount_minor: optional(z.number().int().min(0)),
      currency: optional(z.string().regex(/^[A-Z]{3}$/)),
      plan_id: optional(z.uuid()),
      has_card: optional(z.boolean()),
    },
    source.event.data,
  );
  const subscription = await subscriptionWithPlan(ctx.db, subscriptionId, data.plan_id);
  if (!subscription) return { suppressed: `subscription ${subscriptionId} not found` };
  if (subscription.status !== "trialing") return { suppressed: `the subscription is ${subscription.status}` };
  if (subscription.cancelAtPeriodEnd) return { suppressed: "the subscription is set to cancel" };
  const ends = data.trial_end ?? subscription.trialEnd?.toISOString();
  if (ends === undefined) return { suppressed: "the subscription has no trial end" };
  if (DateTime.fromISO(ends, { zone: source.zone }) <= source.now)
    return { suppressed: "the trial has ended" };
  return {
    model: {
      kind: "trial_ending",
      amount: announcedAmount(data, subscription),
      planName: subscription.planName,
      trialEndsOn: localDate(ends, source.zone),
      portalUrl: ctx.links.portal?.(source.customerId) ?? null,
      hasCard: data.has_card ?? subscription.paymentMethodId !== null,
      paysByLink: subscription.collectionMethod === "send_payment_link",
    },
  };
};
