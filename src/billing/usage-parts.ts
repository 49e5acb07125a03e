import type { ChargeLine } from "./charge-lines.js";
import type { PriceModel } from "./price-models.js";

/**
 * Rule (pure): progressive billing. A period's usage may be billed in parts before the period
 * closes (a spending threshold), and the parts and the closing charge together bill exactly what
 * the period's usage costs. Each line bills a meter's usage beyond what earlier parts billed for
 * that meter: the units not billed yet, and the price of the usage so far less the amount billed.
 * Only a price that never falls as usage grows may be billed in parts (every model but volume, whose
 * whole quantity moves to a cheaper tier); volume prices, and meters whose value can fall (`last`),
 * wait for the close. Nothing is ever billed below zero: a price lowered after a part was billed
 * does not pay back what that part collected. A line with an earlier part keeps no tier parts (they
 * describe the whole usage, not this line); one without is the plain usage line.
 */

/** What the earlier parts of a period billed for one meter. */
export interface BilledUsage {
  readonly quantity: number;
  readonly amountMinor: number;
}

/** Whether a usage price can be billed in parts: its price never falls as the usage grows. */
export function priceGrowsWithUsage(price: PriceModel): boolean {
  return price.model !== "volume";
}

/** The usage lines less what earlier parts billed, meter by meter (billed keyed by meter id). */
export function lessBilled(
  lines: readonly ChargeLine[],
  billed: ReadonlyMap<string, BilledUsage>,
): ChargeLine[] {
  return lines.map((line) => {
    const before = line.refId === null ? undefined : billed.get(line.refId);
    if (!before) return line;
    return {
      ...line,
      quantity: Math.max(0, line.quantity - before.quantity),
      amountMinor: Math.max(0, line.amountMinor - before.amountMinor),
      parts: [],
    };
  });
}
