import { chargeForPeriod, type PeriodCharge } from "../billing/index.js";
import type { DiscountUse, LiveDiscount } from "./live-discounts.js";

/**
 * Prices a subscription's consecutive periods, oldest first: each takes the live discount while it
 * covers one more period, then the credit left. Pure; returns what the write-back needs (the
 * discount's use and the credit left) beside each period's charge. `price` is every period's
 * price, or each period's in turn (the first may carry one-off lines the others do not).
 */
export interface PricedPeriods {
  readonly charges: readonly PeriodCharge[];
  readonly discountUse: DiscountUse | null;
  readonly creditLeftMinor: number;
}

export function pricePeriods(
  price: number | readonly number[],
  periods: number,
  discount: LiveDiscount | null,
  creditMinor: number,
): PricedPeriods {
  const charges: PeriodCharge[] = [];
  let credit = creditMinor;
  const before = discount?.periodsApplied ?? 0;
  let applied = before;
  let ended = false;
  for (let i = 0; i < periods; i++) {
    const charge = chargeForPeriod({
      priceMinor: typeof price === "number" ? price : (price[i] as number),
      discount: discount && !ended ? { ...discount, periodsApplied: applied } : null,
      creditMinor: credit,
    });
    charges.push(charge);
    credit = charge.creditLeftMinor;
    if (charge.discountApplied) {
      applied += 1;
      ended = charge.discountEnds;
    }
  }
  const used = applied - before;
  const discountUse =
    discount && used > 0
      ? { discountId: discount.id, couponId: discount.couponId, periods: used, ended }
      : null;
  return { charges, discountUse, creditLeftMinor: credit };
}
