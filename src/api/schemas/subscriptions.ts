import { z } from "zod";
import { COLLECTION_METHODS, MAX_QUANTITY, SUBSCRIPTION_STATES, storableText } from "../../billing/index.js";
import type { EventRow, SubscriptionView } from "../services/subscriptions.js";
import { iso, pageLimit, pageOf, pageQuery, problemReplies, timestamp } from "./common.js";
import { applyDiscountBody, discountSchema, presentDiscount } from "./coupons.js";

/** Units of a plan a subscription holds (seats). */
export const quantityField = z
  .number({ error: "quantity must be a number" })
  .int({ error: "quantity must be a whole number" })
  .min(1, { error: "quantity must be at least 1" })
  .max(MAX_QUANTITY, { error: `quantity must be at most ${MAX_QUANTITY}` });

const collectionMethodField = z.enum(COLLECTION_METHODS, {
  error: `collection_method must be one of ${COLLECTION_METHODS.join(", ")}`,
});

export const subscriptionSchema = z
  .object({
    id: z.uuid(),
    customer_id: z.uuid(),
    plan_id: z.uuid(),
    quantity: z
      .number()
      .int()
      .describe("Units of the plan (seats): a period costs the plan's price model at this quantity"),
    status: z.enum(SUBSCRIPTION_STATES),
    timezone: z.string().describe("IANA zone in which period boundaries fall"),
    collection_method: collectionMethodField.describe(
      "How its charges are collected: charge_automatically (the saved card) or send_payment_link (each charge goes to the customer as a payment link)",
    ),
    current_period_start: timestamp.nullable(),
    current_period_end: timestamp.nullable(),
    next_billing_at: timestamp.nullable(),
    trial_end: timestamp.nullable(),
    cancel_at_period_end: z.boolean(),
    credit_minor: z
      .number()
      .int()
      .describe(
        "Owed to the customer in minor units of the plan's currency (a downgrade's unused time); taken off the next charges first",
      ),
    canceled_at: timestamp.nullable(),
    paused_at: timestamp.nullable(),
    ended_reason: z.string().nullable(),
    discount: discountSchema
      .nullable()
      .describe("The live discount, taken off each period's charge while it lasts; null when none"),
    scheduled_plan_change: z
      .object({ id: z.uuid(), to_plan_id: z.uuid(), to_quantity: z.number().int(), effective_at: timestamp })
      .nullable()
      .describe(
        "A plan change scheduled for the end of the period (change-plan with at_period_end); null when none",
      ),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Subscription" });

export type SubscriptionBody = z.infer<typeof subscriptionSchema>;

/** The replies of an action on a subscription, which answers with the subscription afterwards. */
export const subscriptionActionReplies = {
  200: subscriptionSchema,
  401: problemReplies[401],
  404: problemReplies[404],
  409: problemReplies[409],
  422: problemReplies[422],
};

export function presentSubscription(row: SubscriptionView): SubscriptionBody {
  return {
    id: row.id,
    customer_id: row.customerId,
    plan_id: row.planId,
    quantity: row.quantity,
    status: row.status,
    timezone: row.timezone,
    collection_method: row.collectionMethod,
    current_period_start: iso(row.currentPeriodStart),
    current_period_end: iso(row.currentPeriodEnd),
    next_billing_at: iso(row.nextBillingAt),
    trial_end: iso(row.trialEnd),
    cancel_at_period_end: row.cancelAtPeriodEnd,
    credit_minor: row.creditMinor,
    canceled_at: iso(row.canceledAt),
    paused_at: iso(row.pausedAt),
    ended_reason: row.endedReason,
    discount: row.discount ? presentDiscount(row.discount) : null,
    scheduled_plan_change: row.scheduledPlanChange && {
      id: row.scheduledPlanChange.id,
      to_plan_id: row.scheduledPlanChange.toPlanId,
      to_quantity: row.scheduledPlanChange.toQuantity,
      effective_at: iso(row.scheduledPlanChange.effectiveAt),
    },
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

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
