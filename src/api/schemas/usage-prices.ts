import { z } from "zod";
import { PRICE_MODELS, type PriceModel } from "../../billing/index.js";
import { toDecimalString } from "../../money/index.js";
import type { StoredUsagePrice, UsageThreshold } from "../../usage-billing/index.js";
import { iso, moneySchema, presentMoney, timestamp } from "./common.js";

/** A plan's usage prices (src/usage-billing, docs/usage.md "Charging usage"), shown as a plan's price. */

const tierSchema = z.object({
  up_to: z.number().int().nullable().describe("Last unit of the tier, inclusive; null: the open last tier"),
  unit_amount: z.string().describe("Price of each unit in the tier, a decimal string in the plan's currency"),
  flat_amount: z.string().describe("Added once when any unit falls in the tier"),
});

export const usagePriceSchema = z
  .object({
    plan_id: z.uuid(),
    meter_id: z.uuid(),
    meter: z.string().describe("The meter's code"),
    meter_name: z.string().describe("Names the line of the usage charge"),
    meter_archived: z.boolean(),
    amount: moneySchema.describe(
      "Price of one unit (per_unit), of one package (package) or of the period whatever its usage (flat); 0 for tiered and volume, priced by their tiers",
    ),
    price_model: z.enum(PRICE_MODELS),
    tiers: z
      .array(tierSchema)
      .nullable()
      .describe("tiered and volume: the tiers, ascending by up_to; else null"),
    package_size: z.number().int().nullable().describe("package: units per package; else null"),
    created_at: timestamp.describe(
      "Billing clock, when first set: the price bills the periods that end after it",
    ),
    updated_at: timestamp.describe("Billing clock, when last set"),
  })
  .meta({ id: "UsagePrice" });

function tiersOf(price: PriceModel, currency: string) {
  if (price.model !== "tiered" && price.model !== "volume") return null;
  return price.tiers.map((tier) => ({
    up_to: tier.upTo,
    unit_amount: toDecimalString(tier.unitAmountMinor, currency),
    flat_amount: toDecimalString(tier.flatAmountMinor, currency),
  }));
}

export function presentUsagePrice(usagePrice: StoredUsagePrice): z.infer<typeof usagePriceSchema> {
  const { price, currency } = usagePrice;
  return {
    plan_id: usagePrice.planId,
    meter_id: usagePrice.meterId,
    meter: usagePrice.meterCode,
    meter_name: usagePrice.meterName,
    meter_archived: usagePrice.meterArchived,
    amount: presentMoney(usagePrice.amountMinor, currency),
    price_model: price.model,
    tiers: tiersOf(price, currency),
    package_size: price.model === "package" ? price.packageSize : null,
    created_at: iso(usagePrice.createdAt),
    updated_at: iso(usagePrice.updatedAt),
  };
}

export const usagePriceList = z.object({ data: z.array(usagePriceSchema) });

export const usagePriceParams = z.object({
  id: z.uuid().describe("The plan's id"),
  meter: z.string().min(1).max(100).describe("The meter's code (or its id)"),
});

export const usageThresholdSchema = z
  .object({
    plan_id: z.uuid(),
    usage_threshold: moneySchema
      .nullable()
      .describe(
        "Usage not yet billed in an open period is charged once it reaches this; null: only at the close",
      ),
  })
  .meta({ id: "UsageThreshold" });

export function presentUsageThreshold(threshold: UsageThreshold): z.infer<typeof usageThresholdSchema> {
  return {
    plan_id: threshold.planId,
    usage_threshold:
      threshold.thresholdMinor === null ? null : presentMoney(threshold.thresholdMinor, threshold.currency),
  };
}
