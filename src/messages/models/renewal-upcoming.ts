import { DateTime } from "luxon";
import { z } from "zod";
import { isLive } from "../../billing/index.js";
import { announcedAmount, subscriptionWithPlan } from "./rows.js";
import { isoText, localDate, type ModelLoader, optional, readData } from "./source.js";

/**
 * renewal_upcoming: the subscription renews on a date for an amount, or a trial converts into
 * its first paid period. What the event says is read first (renews_on or period_start,
 * amount_minor and currency, plan_id, trial_converts), the subscription and its plan filling in
 * what it leaves out. It no longer applies once the subscription stopped being live or is set to
 * cancel, or once the renewal date has passed (the charge itself then tells the customer).
 */
export const renewalUpcomingModel: ModelLoader = async (ctx, source) => {
  const subscriptionId = source.event.subscriptionId;
  if (subscriptionId === null) return { suppressed: "the event names no subscription" };
  const data = readData(
    {
      renews_on: isoText,
      period_start: isoText,
      amount_minor: optional(z.number().int().min(0)),
      currency: optional(z.string().regex(/^[A-Z]{3}$/)),
      plan_id: optional(z.uuid()),
      trial_converts: optional(z.boolean()),
    },
    source.event.data,
  );
  const subscription = await subscriptionWithPlan(ctx.db, subscriptionId, data.plan_id);
  if (!subscription) return { suppressed: `subscription ${subscriptionId} not found` };
  if (!isLive(subscription.status)) return { suppressed: `the subscription is ${subscription.status}` };
  if (subscription.cancelAtPeriodEnd) return { suppressed: "the subscription is set to cancel" };
  const renews = data.renews_on ?? data.period_start ?? subscription.nextBillingAt?.toISOString();
  if (renews === undefined) return { suppressed: "the subscription has no renewal date" };
  if (DateTime.fromISO(renews, { zone: source.zone }) <= source.now) {
    return { suppressed: "the renewal date has passed" };
  }
  return {
    model: {
      kind: "renewal_upcoming",
      amount: announcedAmount(data, subscription),
      planName: subscription.planName,
      renewsOn: localDate(renews, source.zone),
      portalUrl: ctx.links.portal?.(source.customerId) ?? null,
      trialConverts: data.trial_converts ?? subscription.status === "trialing",
    },
  };
};
