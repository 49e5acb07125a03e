import { z } from "zod";
import { MAX_QUANTITY, SUBSCRIPTION_STATES, storableText } from "../../billing/index.js";
import type { EventRow } from "../../resources/index.js";
import { collectionMethodField, subscriptionSchema } from "../../resources/subscription.js";
import { iso, pageLimit, pageOf, pageQuery, problemReplies, timestamp } from "./common.js";
import { applyDiscountBody } from "./coupons.js";

/** The subscription itself is src/resources/subscription.ts, which webhooks and the CLI share; re-exported here. */
export { presentSubscription, subscriptionSchema } from "../../resources/subscription.js";

/** Units of a plan a subscription holds (seats). */
export const quantityField = z
  .number({ error: "quantity must be a number" })
  .int({ error: "quantity must be a whole number" })
  .min(1, { error: "quantity must be at least 1" })
  .max(MAX_QUANTITY, { error: `quantity must be at most ${MAX_QUANTITY}` });

/** The replies of an action on a subscription, which answers with the subscription afterwards. */
export const subscriptionActionReplies = {
  200: subscriptionSchema,
  401: problemReplies[401],
  404: problemReplies[404],
  409: problemReplies[409],
  422: problemReplies[422],
};

export const subscriptionListQuery = pageQuery.extend({
  status: z.enum(SUBSCRIPTION_STATES).optional(),
  customer_id: z.uuid().optional(),
});

export const subscriptionPage = pageOf(subscriptionSchema);

export const createSubscriptionBody = z.strictObject({
  customer_id: z.uuid({ error: "customer_id must be a customer id (uuid)" }),
  plan_id: z.uuid({ error: "plan_id must be a plan id (uuid)" }),
  quantity: quantityField
    .optional()
    .describe(
      "Units of the plan (seats), 1 by default: a period costs the plan's price model at this quantity",
    ),
  allow_duplicate: z
    .boolean({ error: "allow_duplicate must be true or false" })
    .optional()
    .describe(
      "Subscribe although the customer already has a subscription to the plan that is not canceled (refused with 409 otherwise)",
    ),
  coupon: applyDiscountBody.shape.coupon
    .optional()
    .describe(
      "A coupon code to redeem on the new subscription (autosave plans, or a subscription that pays by payment link)",
    ),
  collection_method: collectionMethodField
    .optional()
    .describe(
      "charge_automatically: the customer saves a card at a hosted checkout first; send_payment_link: no card, the subscription starts at once and each charge goes out as a payment link. Default: the plan's collection_method, or send_payment_link for a plan with trial_without_card",
    ),
});

export const createdSubscriptionSchema = subscriptionSchema
  .extend({
    enrollment_id: z
      .uuid()
      .nullable()
      .describe("The enrollment whose checkout saves the card; null for a subscription paying by link"),
    checkout_url: z
      .url()
      .nullable()
      .describe(
        "Hosted checkout page where the customer saves a card; null for a subscription paying by link, which has started already",
      ),
  })
  .meta({ id: "CreatedSubscription" });

/** Switching how a subscription pays. */
export const collectionMethodBody = z.strictObject({
  collection_method: collectionMethodField.describe(
    "charge_automatically: charge the card on file (refused with 422 no_usable_card without one the gateway lets us charge); send_payment_link: send each charge to the customer as a payment link",
  ),
});

/** Why a person changed a subscription: kept in the event log. */
export const reasonField = z
  .string({ error: "reason must be a string" })
  .trim()
  .min(1, { error: "reason must not be empty" })
  .max(500, { error: "reason must be at most 500 characters" })
  .check(storableText("reason"))
  .optional();

/** Nothing (cancel now), or the options; null is what Fastify makes of a POST without a body. */
export const cancelBody = z
  .strictObject({
    at_period_end: z
      .boolean({ error: "at_period_end must be true or false" })
      .optional()
      .describe("Keep the subscription until its current period ends instead of ending it now"),
    reason: reasonField,
  })
  .nullish();

export const checkoutLinkSchema = z.object({
  enrollment_id: z.uuid(),
  checkout_url: z.url(),
});

export const eventSchema = z
  .object({
    id: z.number().int(),
    type: z.string(),
    actor: z.string(),
    subscription_id: z.uuid().nullable(),
    customer_id: z.uuid().nullable(),
    charge_id: z.uuid().nullable(),
    data: z.record(z.string(), z.unknown()),
    occurred_at: timestamp.describe("Billing-clock time of the fact"),
    recorded_at: timestamp,
  })
  .meta({ id: "Event" });

export function presentEvent(row: EventRow): z.infer<typeof eventSchema> {
  return {
    id: row.id,
    type: row.type,
    actor: row.actor,
    subscription_id: row.subscriptionId,
    customer_id: row.customerId,
    charge_id: row.chargeId,
    data: row.data,
    occurred_at: iso(row.occurredAt),
    recorded_at: iso(row.recordedAt),
  };
}

export const eventListQuery = z.object({
  limit: pageLimit,
  starting_after: z.coerce
    .number({ error: "starting_after must be an event id" })
    .int({ error: "starting_after must be an event id" })
    .min(0, { error: "starting_after must be an event id" })
    .optional()
    .describe("Id of the last event already seen"),
});

export const eventPage = pageOf(eventSchema);
