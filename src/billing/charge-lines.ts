import { type PriceModel, type PricePart, priceBreakdown } from "./price-models.js";

/**
 * What a charge is made of, line by line, before its discount and credit. Pure. The scheduler and
 * the preview of the next charge (pricing/upcoming-charge.ts) both price a period from these lines,
 * so what the preview shows is what the tick charges:
 * - the plan: its price model at the subscription's quantity, with its parts (the tiers a graduated
 *   price went through);
 * - each add-on: its own price model at its own quantity;
 * - each one-off charge waiting for the next bill: its unit amount × its quantity.
 * The charge's price is the lines' total; the coupon and the credit then apply to that total.
 */
/** What a charge bills: a period, a plan change's difference, or a one-off charge collected now. */
export const CHARGE_KINDS = ["period", "plan_change", "one_off", "usage"] as const;
export type ChargeKind = (typeof CHARGE_KINDS)[number];

export const CHARGE_LINE_KINDS = ["plan", "addon", "one_off", "usage"] as const;
export type ChargeLineKind = (typeof CHARGE_LINE_KINDS)[number];

export interface ChargeLine {
  readonly kind: ChargeLineKind;
  readonly description: string;
  readonly quantity: number;
  readonly amountMinor: number;
  readonly parts: readonly PricePart[];
  /** The add-on or one-off charge the line bills; null for the plan. */
  readonly refId: string | null;
}

export function planLine(planName: string, price: PriceModel, quantity: number): ChargeLine {
  const { totalMinor, parts } = priceBreakdown(price, quantity);
  return { kind: "plan", description: planName, quantity, amountMinor: totalMinor, parts, refId: null };
}

export function addonLine(
  addon: { id: string; name: string; price: PriceModel },
  quantity: number,
): ChargeLine {
  const { totalMinor, parts } = priceBreakdown(addon.price, quantity);
  return {
    kind: "addon",
    description: addon.name,
    quantity,
    amountMinor: totalMinor,
    parts,
    refId: addon.id,
  };
}

export function oneOffLine(item: {
  id: string;
  description: string;
  unitAmountMinor: number;
  quantity: number;
}): ChargeLine {
  const { totalMinor, parts } = priceBreakdown(
    { model: "per_unit", unitAmountMinor: item.unitAmountMinor },
    item.quantity,
  );
  return {
    kind: "one_off",
    description: item.description,
    quantity: item.quantity,
    amountMinor: totalMinor,
    parts,
    refId: item.id,
  };
}

/**
 * One period's lines, in the order a receipt prints them: the plan, its add-ons, then the one-off
 * charges it takes (the scheduler gives them to the first period it bills, once).
 */
export function periodLines(
  plan: ChargeLine,
  addons: readonly { id: string; name: string; price: PriceModel; quantity: number }[],
  oneOffs: readonly { id: string; description: string; unitAmountMinor: number; quantity: number }[],
): ChargeLine[] {
  return [plan, ...addons.map((addon) => addonLine(addon, addon.quantity)), ...oneOffs.map(oneOffLine)];
}

/** The lines' total, refused past Number.MAX_SAFE_INTEGER rather than rounded. */
export function subtotalOf(lines: readonly ChargeLine[]): number {
  const total = lines.reduce((sum, line) => sum + line.amountMinor, 0);
  if (!Number.isSafeInteger(total)) throw new RangeError("the charge is too large to price exactly");
  return total;
}

/**
 * Whether the lines say more than the charge's plan and amount already do: a charge of one flat
 * plan line is stored without lines (most charges; the scheduler writes them in bulk).
 */
export function linesWorthStoring(lines: readonly ChargeLine[]): boolean {
  return (
    lines.length > 1 ||
    lines.some((line) => line.kind !== "plan" || line.parts.length > 1 || line.quantity !== 1)
  );
}
