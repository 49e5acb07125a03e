import { z } from "zod";
import { COLLECTION_METHODS, SUBSCRIPTION_STATES } from "../billing/index.js";
import { discountSchema, presentDiscount } from "./discount.js";
import { iso, timestamp } from "./shapes.js";
import type { SubscriptionView } from "./subscription-rows.js";

/**
 * The subscription as the merchant sees it, in one shape wherever it appears: the API's replies and
 * the object a subscription.* webhook carries (src/webhooks/event-objects.ts), so the two cannot drift.
 */

/** Also what the API's bodies validate collection_method with, hence the error message. */
export const collectionMethodField = z.enum(COLLECTION_METHODS, {
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
