import { type PriceModel, priceModelOf, tiersToStored } from "../billing/index.js";
import type { addons } from "../db/schema/index.js";
import type { AddonInput } from "./addon-input.js";

/**
 * Rule: an add-on's price lives in the same columns as a plan's (price_model, amount_minor, tiers
 * in their stored form, package_size), so it is read back with priceModelOf, which throws on a
 * malformed row rather than price anything.
 */

export type AddonRow = typeof addons.$inferSelect;

export interface StoredAddon extends AddonInput {
  readonly id: string;
  readonly createdAt: Date;
  /** Set once it is attached to nothing new; subscriptions that carry it keep it. */
  readonly archivedAt: Date | null;
}

export function toStoredAddon(row: AddonRow): StoredAddon {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    amount: { minor: row.amountMinor, currency: row.currency },
    price: priceModelOf(row),
    createdAt: row.createdAt,
    archivedAt: row.archivedAt,
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
