import { exponentOf } from "../money/index.js";
import { periodPriceMinor, type StoredPlanPrice } from "../pricing/index.js";

/**
 * What the enrolment checkout asks: one period of the plan at the subscription's quantity. For a
 * recurring plan (always flat) that is the amount the gateway then charges the token every period;
 * for an autosave card it only verifies the card (isVoid gives it back). A period that costs nothing
 * (a free first tier) cannot be a checkout amount, so such a card is verified with one major unit
 * of the currency (1.00 QAR), given back the same way.
 */
export function verificationAmountMinor(
  plan: StoredPlanPrice & { currency: string },
  quantity: number,
): number {
  const price = periodPriceMinor(plan, quantity);
  return price > 0 ? price : 10 ** exponentOf(plan.currency);
}
