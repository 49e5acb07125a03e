import type { ChargeLine } from "./charge-lines.js";
import { type PriceModel, priceBreakdown } from "./price-models.js";

/**
 * Rule (pure): a period's usage charge is one line per usage price of its plan, in meter code
 * order, whether or not the meter recorded anything: kind `usage`, the meter's name, the period's
 * aggregated value as the quantity (0 when the meter has no value for the period), priced by the
 * price's model (billing/price-models.ts: exact minor units, refused rather than rounded). The
 * charge is the lines' total; no coupon or credit applies to it. The same prices and usage always
 * give the same lines, so a usage charge can be re-computed from the events at any time.
 */

/** charge_lines.quantity is a 4-byte integer: a larger value cannot be stored as a line. */
export const MAX_USAGE_LINE_QUANTITY = 2_147_483_647;

export interface UsagePrice {
  readonly meterId: string;
  readonly meterCode: string;
  readonly meterName: string;
  readonly price: PriceModel;
}

/** A usage charge's order: by meter code, in code units (not a database's collation). */
export const byMeterCode = (a: { readonly meterCode: string }, b: { readonly meterCode: string }): number =>
  a.meterCode < b.meterCode ? -1 : a.meterCode > b.meterCode ? 1 : 0;

export function priceUsage(prices: readonly UsagePrice[], usage: ReadonlyMap<string, number>): ChargeLine[] {
  const ordered = [...prices].sort(byMeterCode);
  return ordered.map((usagePrice) => {
    const quantity = usage.get(usagePrice.meterCode) ?? 0;
    if (quantity > MAX_USAGE_LINE_QUANTITY) {
      throw new RangeError(
        `usage of meter ${usagePrice.meterCode} is ${quantity}, above ${MAX_USAGE_LINE_QUANTITY}, the most a charge line holds`,
      );
    }
    const { totalMinor, parts } = priceBreakdown(usagePrice.price, quantity);
    return {
      kind: "usage",
      description: usagePrice.meterName,
      quantity,
      amountMinor: totalMinor,
      parts,
      refId: usagePrice.meterId,
    };
  });
}
