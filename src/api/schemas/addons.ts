import { z } from "zod";
import type { SetSubscriptionAddonResult, StoredAddon, SubscriptionAddon } from "../../addons/index.js";
import { MAX_QUANTITY, PRICE_MODELS, type PriceModel, priceOf } from "../../billing/index.js";
import { toDecimalString } from "../../money/index.js";
import { iso, moneySchema, pageOf, pageQuery, presentMoney, timestamp } from "./common.js";

/** Add-ons, and the add-ons a subscription carries; prices are shown as a plan's are. */

const tierSchema = z.object({
  up_to: z.number().int().nullable().describe("Last unit of the tier, inclusive; null: the open last tier"),
  unit_amount: z
    .string()
    .describe("Price of each unit in the tier, a decimal string in the add-on's currency"),
  flat_amount: z.string().describe("Added once when any unit falls in the tier"),
});

/** The price fields, as a plan shows them (and as the create body takes them back). */
const priceShape = {
  amount: moneySchema.describe(
    "Price of one period (flat), of one unit (per_unit) or of one package (package); 0 for tiered and volume, priced by their tiers",
  ),
  price_model: z
    .enum(PRICE_MODELS)
    .describe(
      "How a period's price grows with the quantity: flat, per_unit, tiered (graduated), volume or package",
    ),
  tiers: z
    .array(tierSchema)
    .nullable()
    .describe("tiered and volume: the tiers, ascending by up_to; else null"),
  package_size: z.number().int().nullable().describe("package: units per package; else null"),
};

function presentPrice(addon: StoredAddon) {
  const { price } = addon;
  const { minor, currency } = addon.amount;
  return {
    amount: presentMoney(minor, currency),
    price_model: price.model,
    tiers: tiersOf(price, currency),
    package_size: price.model === "package" ? price.packageSize : null,
  };
}

function tiersOf(price: PriceModel, currency: string) {
  if (price.model !== "tiered" && price.model !== "volume") return null;
  return price.tiers.map((tier) => ({
    up_to: tier.upTo,
    unit_amount: toDecimalString(tier.unitAmountMinor, currency),
    flat_amount: toDecimalString(tier.flatAmountMinor, currency),
  }));
}

export const addonSchema = z
  .object({
    id: z.uuid(),
    code: z.string().describe("Names the add-on in every request; never changes"),
    name: z.string(),
    ...priceShape,
    created_at: timestamp,
    archived_at: timestamp.nullable().describe("Set once archived: attached to nothing new from then on"),
  })
  .meta({ id: "Addon" });

export function presentAddon(addon: StoredAddon): z.infer<typeof addonSchema> {
  return {
    id: addon.id,
    code: addon.code,
    name: addon.name,
    ...presentPrice(addon),
    created_at: iso(addon.createdAt),
    archived_at: iso(addon.archivedAt),
  };
}

export const addonListQuery = pageQuery.extend({
  archived: z.stringbool().default(false).describe("Also list archived add-ons"),
});

export const addonPage = pageOf(addonSchema);

const code = z.string().min(1).max(100).describe("The add-on's code (or its id)");

export const addonParams = z.object({ code });
export const subscriptionAddonParams = z.object({ id: z.uuid(), code });

const QUANTITY_RULE = `quantity must be a whole number from 1 to ${MAX_QUANTITY}`;

export const setSubscriptionAddonBody = z.strictObject({
  quantity: z
    .number({ error: QUANTITY_RULE })
    .int({ error: QUANTITY_RULE })
    .min(1, { error: QUANTITY_RULE })
    .max(MAX_QUANTITY, { error: QUANTITY_RULE })
    .describe("Units of the add-on, priced by its price model each period"),
});

export const subscriptionAddonSchema = z
  .object({
    id: z.uuid().describe("This add-on at this quantity; a new quantity is a new id"),
    subscription_id: z.uuid(),
    addon_id: z.uuid(),
    code: z.string(),
    name: z.string(),
    quantity: z.number().int(),
    ...priceShape,
    period_amount: moneySchema.describe(
      "One period of the add-on at this quantity, before discount and credit",
    ),
    addon_archived: z.boolean().describe("An archived add-on stays on the subscriptions that carry it"),
    added_at: timestamp.describe("Billing clock; billed from the next period charged after it"),
    removed_at: timestamp.nullable().describe("Billing clock; null while it is carried"),
  })
  .meta({ id: "SubscriptionAddon" });

export function presentSubscriptionAddon(row: SubscriptionAddon): z.infer<typeof subscriptionAddonSchema> {
  const { addon } = row;
  return {
    id: row.id,
    subscription_id: row.subscriptionId,
    addon_id: addon.id,
    code: addon.code,
    name: addon.name,
    quantity: row.quantity,
    ...presentPrice(addon),
    // The quantity was priced when it was set (set-subscription-addon.ts), so this cannot overflow.
    period_amount: presentMoney(priceOf(addon.price, row.quantity), addon.amount.currency),
    addon_archived: addon.archivedAt !== null,
    added_at: iso(row.addedAt),
    removed_at: iso(row.removedAt),
  };
}

export const subscriptionAddonList = z.object({ data: z.array(subscriptionAddonSchema) });

export const setSubscriptionAddonReply = subscriptionAddonSchema.extend({
  change: z
    .enum(["added", "updated", "unchanged"])
    .describe("added: newly attached; updated: a new quantity; unchanged: it already had this quantity"),
  from_quantity: z.number().int().nullable().describe("The quantity before; null when it was not attached"),
});

export function presentSetResult(
  result: SetSubscriptionAddonResult,
): z.infer<typeof setSubscriptionAddonReply> {
  return {
    ...presentSubscriptionAddon(result.subscriptionAddon),
    change: result.change,
    from_quantity: result.fromQuantity,
  };
}
