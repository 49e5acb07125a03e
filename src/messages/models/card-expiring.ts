import { eq } from "drizzle-orm";
import { z } from "zod";
import { isLive } from "../../billing/index.js";
import { paymentMethods } from "../../db/schema/index.js";
import { subscriptionWithPlan } from "./rows.js";
import { isoText, localDate, type ModelLoader, optional, readData } from "./source.js";

/**
 * card_expiring: the subscription's saved card stops working soon; the message carries a fresh
 * link to give a new one. It no longer applies once the subscription has a new card or has
 * stopped being live.
 */
export const cardExpiringModel: ModelLoader = async (ctx, source) => {
  const subscriptionId = source.event.subscriptionId;
  if (subscriptionId === null) return { suppressed: "the event names no subscription" };
  const data = readData(
    { payment_method_id: optional(z.uuid()), card_last4: optional(z.string()), expires_at: isoText },
    source.event.data,
  );
  const subscription = await subscriptionWithPlan(ctx.db, subscriptionId);
  if (!subscription) return { suppressed: `subscription ${subscriptionId} not found` };
  if (!isLive(subscription.status)) return { suppressed: `the subscription is ${subscription.status}` };
  const cardId = data.payment_method_id ?? subscription.paymentMethodId;
  if (cardId === null || cardId !== subscription.paymentMethodId) {
    return { suppressed: "the subscription has a new card since" };
  }
  const [card] = await ctx.db
    .select({ last4: paymentMethods.cardLast4, expiresAt: paymentMethods.expiresAt })
    .from(paymentMethods)
    .where(eq(paymentMethods.id, cardId));
  if (!card) return { suppressed: `card ${cardId} not found` };
  return {
    model: {
      kind: "card_expiring",
      cardLast4: data.card_last4 ?? card.last4,
      // A card's expiry is the last instant of its month in UTC (tokenExpiry): read in UTC, so
      // Qatar's clock, three hours ahead, does not move it into the next month.
      expiresOn: localDate(data.expires_at ?? card.expiresAt, "UTC"),
      newCardUrl: ctx.links.newCard(subscriptionId),
    },
  };
};
