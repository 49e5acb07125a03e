import { z } from "zod";
import { subscriptionWithPlan } from "./rows.js";
import { isoText, localDate, type ModelLoader, optional, readData } from "./source.js";

/**
 * subscription_canceled: the subscription ended on a date (its canceled_at). It ends when the
 * event is recorded (a cancellation at period end is carried out at the period's end), so the
 * message names an end date only when the event gives one (ends_on). A subscription canceled
 * before it ever started (its checkout failed) tells the customer nothing: there was nothing to end.
 */
export const subscriptionCanceledModel: ModelLoader = async (ctx, source) => {
  const subscriptionId = source.event.subscriptionId;
  if (subscriptionId === null) return { suppressed: "the event names no subscription" };
  const data = readData(
    { previous_status: optional(z.string()), canceled_at: isoText, ends_on: isoText },
    source.event.data,
  );
  if (data.previous_status === "pending_enrollment") return { suppressed: "the subscription never started" };
  const subscription = await subscriptionWithPlan(ctx.db, subscriptionId);
  if (!subscription) return { suppressed: `subscription ${subscriptionId} not found` };
  const canceled = subscription.canceledAt ?? data.canceled_at ?? source.event.occurredAt;
  return {
    model: {
      kind: "subscription_canceled",
      planName: subscription.planName,
      canceledOn: localDate(canceled, source.zone),
      endsOn: data.ends_on === undefined ? null : localDate(data.ends_on, source.zone),
    },
  };
};
