import { toDecimalString } from "../../money/index.js";
import {
  add,
  compare,
  type Decimal,
  formatDecimal,
  integerDecimal,
  multiply,
  parseDecimal,
  roundHalfUp,
  shift,
  subtract,
} from "./invoices-decimal.js";
import { fieldError, moneyOf } from "./invoices-validation.js";

/**
 * Invoice amounts, exact in minor units. A detailed invoice's subtotal is Σ qty × amount over its
 * items, summed exactly and then rounded half up to the minor unit once (1.5 × 0.15 QAR = 0.225
 * has no exact value in fils); the discount is taken from that subtotal, a percentage result being
 * rounded half up as well. A quick invoice's amount is the amount sent; its discount is validated
 * and recorded but not subtracted.
 */

export interface PricedLine {
  readonly qty: Decimal;
  readonly amountMinor: number;
}

export type Discount =
  | { readonly type: "percentage"; readonly percent: Decimal }
  | { readonly type: "fixed"; readonly minor: number };

const ONE = integerDecimal(1);
const NINETY_NINE = integerDecimal(99);
const HUNDRED = integerDecimal(100);

/** Σ qty × amount in whole minor units. */
export function itemsSubtotal(lines: readonly PricedLine[]): number {
  const exact = lines.reduce(
    (sum, line) => add(sum, multiply(line.qty, integerDecimal(line.amountMinor))),
    integerDecimal(0),
  );
  const minor = roundHalfUp(exact);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw fieldError("items", "the invoice total is too large");
  return Number(minor);
}

/**
 * Reads setting.discount. A percentage is 0 (no discount) or 1 to 99; a fixed discount is money in
 * the invoice currency and may not exceed the amount it is taken from (`baseMinor`).
 */
export function readDiscount(
  type: "percentage" | "fixed",
  text: string,
  currency: string,
  baseMinor: number,
): Discount {
  if (type === "percentage") {
    const percent = parseDecimal(text);
    const inRange = compare(percent, ONE) >= 0 && compare(percent, NINETY_NINE) <= 0;
    if (percent.units !== 0n && !inRange) {
      throw fieldError("setting.discount", "a percentage discount must be from 1 to 99 (or 0 for none)");
    }
    return { type, percent };
  }
  const minor = moneyOf("setting.discount", text, currency);
  if (minor > baseMinor) {
    const limit = toDecimalString(baseMinor, currency);
    throw fieldError("setting.discount", `a fixed discount must not exceed the invoice amount ${limit}`);
  }
  return { type, minor };
}

/** The discount as the response shows it: a bare percentage or money in the invoice currency. */
export function discountText(discount: Discount, currency: string): string {
  return discount.type === "percentage"
    ? formatDecimal(discount.percent)
    : toDecimalString(discount.minor, currency);
}

/** Subtotal less discount, in whole minor units. */
export function detailedAmount(subtotalMinor: number, discount: Discount): number {
  if (discount.type === "fixed") return subtotalMinor - discount.minor;
  const kept = multiply(integerDecimal(subtotalMinor), subtract(HUNDRED, discount.percent));
  return Number(roundHalfUp(shift(kept, 2)));
}
