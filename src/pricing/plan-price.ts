import { type PriceModel, type PriceModelName, priceModelOf, priceOf } from "../billing/index.js";
import { pgInteger } from "../db/index.js";

/** A plan's price columns as drizzle reads them (tiers still JSON). */
export interface StoredPlanPrice {
  readonly priceModel: PriceModelName;
  readonly amountMinor: number;
  readonly tiers: unknown;
  readonly packageSize: number | null;
}

/** A plan's or an add-on's price columns as raw SQL selects them (the bigint amount as text). */
export interface PriceColumns {
  readonly price_model: PriceModelName;
  readonly amount_minor: string | number;
  readonly tiers: unknown;
  readonly package_size: number | null;
}

/** The price model of raw price columns; malformed stored tiers throw, never price. */
export function priceModelOfColumns(row: PriceColumns): PriceModel {
  return priceModelOf({
    priceModel: row.price_model,
    amountMinor: pgInteger(row.amount_minor),
    tiers: row.tiers,
    packageSize: row.package_size,
  });
}

/** One period of the plan at `quantity` units, before discount and credit. */
export function periodPriceMinor(plan: StoredPlanPrice, quantity: number): number {
  return priceOf(priceModelOf(plan), quantity);
}
