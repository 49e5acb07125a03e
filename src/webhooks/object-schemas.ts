import { z } from "zod";
import { CHARGE_LINE_KINDS } from "../billing/index.js";
import { chargeSchema, moneySchema, subscriptionSchema, timestamp } from "../resources/index.js";
import { webhookTypesCarrying } from "./object-kinds.js";

/**
 * What a webhook's body is, as zod schemas: the objects charge and subscription events carry (the
 * API's own Charge and Subscription, plus what a receiver would otherwise call back for) and the
 * envelopes. They document the payloads (OpenAPI `webhooks`, src/api/openapi-webhooks.ts) and type
 * the presenters (event-objects.ts); deliveries are not validated against them.
 */

export const chargeLineSchema = z
  .object({
    kind: z.enum(CHARGE_LINE_KINDS),
    description: z.string(),
    quantity: z.number().int(),
    amount: moneySchema.describe("The line's amount, before the charge's discount and credit"),
    ref_id: z.uuid().nullable().describe("The add-on or one-off charge the line bills; null for the plan"),
  })
  .meta({ id: "ChargeLine" });

export const chargeObjectSchema = chargeSchema
  .extend({
    object: z.literal("charge"),
    customer_id: z.uuid(),
    plan_name: z.string().describe("The name of plan_id, the plan the charge bills"),
    quantity: z.number().int().describe("The plan's units (seats) the charge bills"),
    lines: z
      .array(chargeLineSchema)
      .optional()
      .describe(
        "What the charge bills, line by line (the plan at its quantity, add-ons, one-offs, usage); absent for a charge of its plan alone at quantity 1",
      ),
  })
  .meta({ id: "WebhookCharge" });

export type ChargeObject = z.infer<typeof chargeObjectSchema>;

export const subscriptionObjectSchema = subscriptionSchema
  .extend({
    object: z.literal("subscription"),
    plan_name: z.string().describe("The name of plan_id"),
  })
  .meta({ id: "WebhookSubscription" });

export type SubscriptionObject = z.infer<typeof subscriptionObjectSchema>;

const AS_OF_DELIVERY =
  "as it was when the delivery first went out (read then, not when the event happened; the same in every retry)";

const envelope = {
  id: z.string().describe("evt_…, the same in every retry: receivers deduplicate on it"),
  created_at: timestamp.describe("When the event happened, on the billing clock"),
};

/** Facts beyond the object are the event's own, as of the event; see each webhook's description. */
const eventFacts = {
  subscription_id: z.uuid().optional(),
  customer_id: z.uuid().optional(),
  charge_id: z.uuid().optional(),
};

export const chargeEventSchema = z
  .object({
    ...envelope,
    type: z.enum(webhookTypesCarrying("charge")),
    data: z
      .looseObject({
        object: chargeObjectSchema.describe(`The charge, ${AS_OF_DELIVERY}`),
        ...eventFacts,
        charge_id: z.uuid(),
      })
      .describe("The charge as data.object; beside it, the event's own facts as of the event"),
  })
  .meta({ id: "ChargeWebhookEvent" });

export const subscriptionEventSchema = z
  .object({
    ...envelope,
    type: z.enum(webhookTypesCarrying("subscription")),
    data: z
      .looseObject({
        object: subscriptionObjectSchema.describe(`The subscription, ${AS_OF_DELIVERY}`),
        ...eventFacts,
        subscription_id: z.uuid(),
      })
      .describe("The subscription as data.object; beside it, the event's own facts as of the event"),
  })
  .meta({ id: "SubscriptionWebhookEvent" });

export const otherEventSchema = z
  .object({
    ...envelope,
    type: z.enum(webhookTypesCarrying(null)),
    data: z.looseObject(eventFacts).describe("The event's own facts, as of the event"),
  })
  .meta({ id: "WebhookEvent" });
