import { z } from "zod";
import {
  COLLECTION_METHODS,
  INTERVAL_UNITS,
  MESSAGE_KINDS,
  PRICE_MODELS,
  type PriceModel,
} from "../../billing/index.js";
import { type Customer, customerInputSchema, customerUpdateSchema } from "../../customers/index.js";
import { billingMode, language } from "../../db/schema/index.js";
import { toDecimalString } from "../../money/index.js";
import type { StoredPlan } from "../../plans/index.js";
import { iso, moneySchema, pageOf, pageQuery, presentMoney, timestamp } from "./common.js";

/** Plans and customers: the catalogue the subscriptions are made of. */

const priceTierSchema = z
  .object({
    up_to: z.number().int().nullable().describe("Last unit of the tier, inclusive; null: the open last tier"),
    unit_amount: z
      .string()
      .describe("Price of each unit in the tier, a decimal string in the plan's currency"),
    flat_amount: z.string().describe("Added once when any unit falls in the tier"),
  })
  .meta({ id: "PriceTier" });

/** Tiers as the create body takes them, so a plan's tiers can be sent again as they are shown. */
function presentTiers(price: PriceModel, currency: string): z.infer<typeof priceTierSchema>[] | null {
  if (price.model !== "tiered" && price.model !== "volume") return null;
  return price.tiers.map((tier) => ({
    up_to: tier.upTo,
    unit_amount: toDecimalString(tier.unitAmountMinor, currency),
    flat_amount: toDecimalString(tier.flatAmountMinor, currency),
  }));
}

export const planSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    amount: moneySchema.describe(
      "Price of one period (flat), of one unit (per_unit) or of one package (package); 0 for tiered and volume plans, priced by their tiers",
    ),
    price_model: z
      .enum(PRICE_MODELS)
      .describe(
        "How a period's price grows with the subscription's quantity: flat, per_unit, tiered (graduated), volume or package",
      ),
    tiers: z
      .array(priceTierSchema)
      .nullable()
      .describe("tiered and volume plans: the tiers, ascending by up_to; null for the other models"),
    package_size: z
      .number()
      .int()
      .nullable()
      .describe("package plans: units per package (a started package is paid in full); else null"),
    interval: z.enum(INTERVAL_UNITS),
    interval_count: z.number().int(),
    trial_days: z.number().int(),
    product_id: z.string().nullable(),
    billing_mode: z.enum(billingMode.enumValues),
    collection_method: z
      .enum(COLLECTION_METHODS)
      .describe(
        "How a new subscription pays unless it says otherwise: charge_automatically (the saved card) or send_payment_link (a payment link per charge)",
      ),
    trial_without_card: z
      .boolean()
      .describe(
        "The trial starts without a card: a new subscription pays by payment link unless it asks for charge_automatically",
      ),
    usage_threshold: moneySchema
      .nullable()
      .describe(
        "Spending threshold: usage not yet billed in an open period is charged once it reaches this (PUT /v1/plans/{id}/usage-threshold); null: usage is charged after the period closes only",
      ),
    created_at: timestamp,
    archived_at: timestamp
      .nullable()
      .describe(
        "When the plan was archived: it takes no new subscriptions, its own keep billing; null while it takes them",
      ),
  })
  .meta({ id: "Plan" });

export function presentPlan(plan: StoredPlan): z.infer<typeof planSchema> {
  return {
    id: plan.id,
    name: plan.name,
    amount: presentMoney(plan.amount.minor, plan.amount.currency),
    price_model: plan.price.model,
    tiers: presentTiers(plan.price, plan.amount.currency),
    package_size: plan.price.model === "package" ? plan.price.packageSize : null,
    interval: plan.intervalUnit,
    interval_count: plan.intervalCount,
    trial_days: plan.trialDays,
    product_id: plan.productId ?? null,
    billing_mode: plan.billingMode,
    collection_method: plan.collectionMethod,
    trial_without_card: plan.trialWithoutCard,
    usage_threshold:
      plan.usageThresholdMinor === null ? null : presentMoney(plan.usageThresholdMinor, plan.amount.currency),
    created_at: iso(plan.createdAt),
    archived_at: iso(plan.archivedAt),
  };
}

export const planListQuery = pageQuery.extend({
  include_archived: z.stringbool().default(false).describe("Also list archived plans"),
});

export const planPage = pageOf(planSchema);

export const customerSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    language: z.enum(language.enumValues),
    time_zone: z
      .string()
      .nullable()
      .describe("IANA zone of the dates in the customer's messages; null: the billing time zone"),
    message_opt_outs: z
      .array(z.enum(MESSAGE_KINDS))
      .describe("Message kinds the customer does not want; the others are sent"),
    created_at: timestamp,
  })
  .meta({ id: "Customer" });

export function presentCustomer(customer: Customer): z.infer<typeof customerSchema> {
  return {
    id: customer.id,
    email: customer.email,
    name: customer.name,
    phone: customer.phone,
    language: customer.language,
    time_zone: customer.timeZone,
    message_opt_outs: customer.messageOptOuts,
    created_at: iso(customer.createdAt),
  };
}

/**
 * The customers service's own schema: its transforms (e-mail lower-cased, phone separators
 * removed) give a body that the service parses again to the same value.
 */
export const createCustomerBody = customerInputSchema;

/** Also the service's own schema: the fields given change, a misspelt one is refused. */
export const updateCustomerBody = customerUpdateSchema;

export const customerPage = pageOf(customerSchema);

export const portalLinkSchema = z
  .object({
    url: z.url().describe("Opens the customer portal once; send it to the customer only"),
    expires_at: timestamp.describe("After this (billing clock) the link no longer opens"),
  })
  .meta({ id: "PortalLink" });
