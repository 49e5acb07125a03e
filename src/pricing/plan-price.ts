import {
  type PriceModel,
  type PriceModelName,
  priceModelOf,
  priceOf,
  tiersFromStored,
} from "../billing/index.js";

/** A plan's price columns as the database gives them (tiers still JSON). */
export interface StoredPlanPrice {
  readonly priceModel: PriceModelName;
  readonly amountMinor: number;
  readonly tiers: unknown;
  readonly packageSize: number | null;
}

/** The plan's price model, its stored tiers checked (a malformed row throws, never prices). */
export function planPriceModel(plan: StoredPlanPrice): PriceModel {
  return priceModelOf({
    priceModel: plan.priceModel,
    amountMinor: plan.amountMinor,
    tiers: plan.tiers === null || plan.tiers === undefined ? null : tiersFromStored(plan.tiers),
    packageSize: plan.packageSize,
  });
}

/** One period of the plan at `quantity` units, before discount and credit. */
export function periodPriceMinor(plan: StoredPlanPrice, quantity: number): number {
  return priceOf(planPriceModel(plan), quantity);
}
