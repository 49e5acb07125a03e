/**
 * How a price grows with a quantity (seats, units of usage). Pure, in integer minor units:
 * - flat: the amount, whatever the quantity;
 * - per_unit: the unit amount × quantity;
 * - tiered (graduated): each tier prices the units that fall in it (units × its unit amount, plus
 *   its flat amount when any unit falls in it), and the tiers' prices add up;
 * - volume: the tier the whole quantity falls in prices every unit (units × unit amount + its flat
 *   amount);
 * - package: the amount per started block of package_size units (11 units in blocks of 10 are 2).
 * Tiers go up in `upTo` (inclusive), the last one open (`upTo` null). A quantity of 0 costs nothing
 * but under flat (and a volume first tier's flat amount). A price past Number.MAX_SAFE_INTEGER is
 * refused (RangeError), never rounded. Stored tiers (plans.tiers, snake_case jsonb) are read and
 * written only through tiersFromStored / tiersToStored, which refuse malformed ones.
 */
import { z } from "zod";

/** Most units a subscription holds (the database checks the same bound). */
export const MAX_QUANTITY = 1_000_000;

export const PRICE_MODELS = ["flat", "per_unit", "tiered", "volume", "package"] as const;
export type PriceModelName = (typeof PRICE_MODELS)[number];

export interface PriceTier {
  /** Last unit of the tier, inclusive; null for the last tier. */
  readonly upTo: number | null;
  readonly unitAmountMinor: number;
  readonly flatAmountMinor: number;
}

export type PriceModel =
  | { readonly model: "flat"; readonly amountMinor: number }
  | { readonly model: "per_unit"; readonly unitAmountMinor: number }
  | { readonly model: "tiered" | "volume"; readonly tiers: readonly PriceTier[] }
  | { readonly model: "package"; readonly packageAmountMinor: number; readonly packageSize: number };

/** One priced part of a quantity: a tier's units, the packages, or the flat price. */
export interface PricePart {
  /** Units priced by this part (packages count their units, not the packages). */
  readonly quantity: number;
  /** The tier's first and last unit (last null: open), for tiered and volume parts. */
  readonly fromUnit?: number;
  readonly toUnit?: number | null;
  /** Packages started, for a package part; its unitAmountMinor is then the price of one package. */
  readonly packages?: number;
  readonly unitAmountMinor: number;
  readonly flatAmountMinor: number;
  readonly amountMinor: number;
}

export interface PriceBreakdown {
  readonly totalMinor: number;
  readonly parts: readonly PricePart[];
}

function safe(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} is too large to price exactly`);
  return value;
}

function checkQuantity(quantity: number): void {
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError(`quantity must be a whole number from 0, got ${quantity}`);
  }
}

/** One thing wrong with a list of tiers. */
export interface TierIssue {
  /** The tier at fault (from 0), or null for the list as a whole. */
  readonly tier: number | null;
  /** Its field, spelt as stored and as the API takes it; null for the list or the tier as a whole. */
  readonly field: "up_to" | "unit_amount" | "flat_amount" | null;
  /** Worded after the field ("up_to must be …"), so a caller can prefix where it is. */
  readonly message: string;
}

/** Every problem of these tiers, in order; empty when they are well formed. */
export function tierIssues(tiers: readonly PriceTier[]): TierIssue[] {
  if (tiers.length === 0) return [{ tier: null, field: null, message: "tiers must list at least one tier" }];
  const issues: TierIssue[] = [];
  // The highest up_to so far: a tier out of order is compared with every tier before it.
  let previous = 0;
  for (const [i, tier] of tiers.entries()) {
    const last = i === tiers.length - 1;
    const upTo = (message: string) => issues.push({ tier: i, field: "up_to", message });
    if (tier.upTo === null && !last) upTo("up_to must not be null: only the last tier is open");
    else if (tier.upTo !== null && last) upTo("up_to must be null: the last tier is open");
    else if (tier.upTo !== null && (!Number.isSafeInteger(tier.upTo) || tier.upTo <= previous)) {
      upTo(
        previous === 0
          ? "up_to must be a whole number from 1"
          : `up_to must be a whole number above ${previous}`,
      );
    }
    for (const [field, value] of [
      ["unit_amount", tier.unitAmountMinor],
      ["flat_amount", tier.flatAmountMinor],
    ] as const) {
      if (!Number.isSafeInteger(value) || value < 0) {
        issues.push({ tier: i, field, message: `${field} must be a whole number of minor units from 0` });
      }
    }
    if (tier.upTo !== null && Number.isSafeInteger(tier.upTo)) previous = Math.max(previous, tier.upTo);
  }
  return issues;
}

/** Why these tiers cannot price anything ("tier 2: up_to must be …"), or null when they are well formed. */
export function tiersProblem(tiers: readonly PriceTier[]): string | null {
  const [first] = tierIssues(tiers);
  if (!first) return null;
  return first.tier === null ? first.message : `tier ${first.tier + 1}: ${first.message}`;
}

function part(quantity: number, unit: number, flat: number, extra: Partial<PricePart> = {}): PricePart {
  const amountMinor = safe(safe(quantity * unit, "the price") + flat, "the price");
  return { quantity, unitAmountMinor: unit, flatAmountMinor: flat, amountMinor, ...extra };
}

/** The price of `quantity` units, part by part. */
export function priceBreakdown(price: PriceModel, quantity: number): PriceBreakdown {
  checkQuantity(quantity);
  const parts = partsOf(price, quantity);
  const totalMinor = parts.reduce((sum, p) => safe(sum + p.amountMinor, "the price"), 0);
  return { totalMinor, parts };
}

/** The price of `quantity` units in minor units. */
export function priceOf(price: PriceModel, quantity: number): number {
  return priceBreakdown(price, quantity).totalMinor;
}

function partsOf(price: PriceModel, quantity: number): PricePart[] {
  switch (price.model) {
    case "flat":
      return [
        { quantity, unitAmountMinor: 0, flatAmountMinor: price.amountMinor, amountMinor: price.amountMinor },
      ];
    case "per_unit":
      return [part(quantity, price.unitAmountMinor, 0)];
    case "package": {
      if (!Number.isSafeInteger(price.packageSize) || price.packageSize < 1) {
        throw new RangeError("package size must be a whole number from 1");
      }
      // Integer arithmetic rather than Math.ceil on a float quotient: exact by construction.
      const rest = quantity % price.packageSize;
      const packages = (quantity - rest) / price.packageSize + (rest > 0 ? 1 : 0);
      return [{ ...part(packages, price.packageAmountMinor, 0), quantity, packages }];
    }
    case "tiered":
    case "volume": {
      const problem = tiersProblem(price.tiers);
      if (problem) throw new RangeError(problem);
      return price.model === "tiered" ? graduated(price.tiers, quantity) : volume(price.tiers, quantity);
    }
  }
}

function graduated(tiers: readonly PriceTier[], quantity: number): PricePart[] {
  const parts: PricePart[] = [];
  let from = 1;
  for (const tier of tiers) {
    if (quantity < from) break;
    const to = tier.upTo === null ? quantity : Math.min(quantity, tier.upTo);
    parts.push(
      part(to - from + 1, tier.unitAmountMinor, tier.flatAmountMinor, { fromUnit: from, toUnit: tier.upTo }),
    );
    if (tier.upTo === null) break;
    from = tier.upTo + 1;
  }
  return parts;
}

function volume(tiers: readonly PriceTier[], quantity: number): PricePart[] {
  let from = 1;
  for (const tier of tiers) {
    if (tier.upTo === null || quantity <= tier.upTo) {
      return [
        part(quantity, tier.unitAmountMinor, tier.flatAmountMinor, { fromUnit: from, toUnit: tier.upTo }),
      ];
    }
    from = tier.upTo + 1;
  }
  throw new RangeError("the last tier must be open (up_to null)");
}

/** A tier as the plans.tiers jsonb column holds it (snake_case, minor units). */
export interface StoredTier {
  readonly up_to: number | null;
  readonly unit_amount_minor: number;
  readonly flat_amount_minor: number;
}

const minorUnits = z.number().int().min(0);
const storedTiers = z.array(
  z.strictObject({
    up_to: z.number().int().min(1).nullable(),
    unit_amount_minor: minorUnits,
    flat_amount_minor: minorUnits,
  }),
);

/**
 * The tiers of a stored row. A row that does not hold well-formed tiers is a bug or a hand edit,
 * never something to price around: it throws, naming what is wrong.
 */
export function tiersFromStored(json: unknown): PriceTier[] {
  const parsed = storedTiers.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues.map((issue) => `${issue.path.join(".") || "tiers"}: ${issue.message}`);
    throw new TypeError(`stored tiers are malformed: ${where.join("; ")}`);
  }
  const tiers = parsed.data.map((tier) => ({
    upTo: tier.up_to,
    unitAmountMinor: tier.unit_amount_minor,
    flatAmountMinor: tier.flat_amount_minor,
  }));
  const problem = tiersProblem(tiers);
  if (problem) throw new TypeError(`stored tiers are malformed: ${problem}`);
  return tiers;
}

/** The jsonb form of tiers; refuses tiers that could not price anything, so none is ever stored. */
export function tiersToStored(tiers: readonly PriceTier[]): StoredTier[] {
  const problem = tiersProblem(tiers);
  if (problem) throw new RangeError(`tiers cannot be stored: ${problem}`);
  return tiers.map((tier) => ({
    up_to: tier.upTo,
    unit_amount_minor: tier.unitAmountMinor,
    flat_amount_minor: tier.flatAmountMinor,
  }));
}

/** Tiers already read (camelCase `upTo`) pass as they are; anything else is the stored jsonb. */
function tiersOfRow(tiers: unknown): readonly PriceTier[] | null {
  if (tiers === null || tiers === undefined) return null;
  const read =
    Array.isArray(tiers) &&
    tiers.length > 0 &&
    tiers.every((tier) => typeof tier === "object" && tier !== null && "upTo" in tier);
  return read ? (tiers as PriceTier[]) : tiersFromStored(tiers);
}

/**
 * A plan's stored price (its columns) as a price model. `tiers` is the row's jsonb as selected
 * (read with tiersFromStored, so a malformed one throws) or tiers already read.
 */
export function priceModelOf(row: {
  readonly priceModel: PriceModelName;
  readonly amountMinor: number;
  readonly tiers: unknown;
  readonly packageSize: number | null;
}): PriceModel {
  switch (row.priceModel) {
    case "flat":
      return { model: "flat", amountMinor: row.amountMinor };
    case "per_unit":
      return { model: "per_unit", unitAmountMinor: row.amountMinor };
    case "package":
      return { model: "package", packageAmountMinor: row.amountMinor, packageSize: row.packageSize ?? 1 };
    case "tiered":
    case "volume":
      return { model: row.priceModel, tiers: tiersOfRow(row.tiers) ?? [] };
  }
}
