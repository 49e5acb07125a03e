import { type PriceModel, priceModelOf, tiersToStored } from "../billing/index.js";
import type { planUsagePrices } from "../db/schema/index.js";

/**
 * Rule: a usage price lives in the same columns as a plan's price (price_model, amount_minor, tiers
 * in their stored form, package_size), so it is read back with priceModelOf, which throws on a
 * malformed row rather than price anything. It is shown with its meter and the plan's currency.
 */

export interface StoredUsagePrice {
  readonly planId: string;
  readonly meterId: string;
  readonly meterCode: string;
  readonly meterName: string;
  readonly meterArchived: boolean;
  /** The plan's: usage is billed on the plan's charges. */
  readonly currency: string;
  /** The amount column: a unit's, a package's or the period's price; 0 for tiered and volume. */
  readonly amountMinor: number;
  readonly price: PriceModel;
  /** Billing clock: the price bills the periods that end after this. */
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export function toStoredUsagePrice(
  row: typeof planUsagePrices.$inferSelect,
  meter: { code: string; name: string; archivedAt: Date | null },
  currency: string,
): StoredUsagePrice {
  return {
    planId: row.planId,
    meterId: row.meterId,
    meterCode: meter.code,
    meterName: meter.name,
    meterArchived: meter.archivedAt !== null,
    currency,
    amountMinor: row.amountMinor,
    price: priceModelOf(row),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The price model's own columns: tiers (stored form) and package_size, null when it has none. */
export function priceColumns(price: PriceModel) {
  return {
    priceModel: price.model,
    tiers: price.model === "tiered" || price.model === "volume" ? tiersToStored(price.tiers) : null,
    packageSize: price.model === "package" ? price.packageSize : null,
  };
}
