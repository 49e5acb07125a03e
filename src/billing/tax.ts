import { mulDivHalfUp } from "./rounding.js";

/**
 * Tax on documents. Prices are tax-inclusive, so a receipt shows the tax already inside the amount
 * paid: amount × rate ÷ (100 % + rate), in whole minor units rounded half up (the rounding of
 * every other share of an amount, rounding.ts). Rates are basis points (1500 = 15 %).
 */

const BASIS_POINTS = 10_000;

/** The tax part of a tax-inclusive amount: 11500 at 1500 bp → 1500. */
export function includedTax(amountMinor: number, rateBp: number): number {
  if (!Number.isSafeInteger(rateBp) || rateBp < 0 || rateBp > BASIS_POINTS)
    throw new RangeError(`tax rate must be whole basis points from 0 to ${BASIS_POINTS}, got ${rateBp}`);
  return mulDivHalfUp(amountMinor, rateBp, BASIS_POINTS + rateBp);
}

export type DocumentSeries = "receipt" | "credit_note";

const PREFIXES: Record<DocumentSeries, string> = { receipt: "RCT", credit_note: "CN" };

/**
 * A document's printed number: the series prefix and its gap-free number padded to six digits
 * (RCT-000042), so numbers sort as text until the millionth; past that they simply grow.
 */
export function formatDocumentNumber(series: DocumentSeries, number: number): string {
  if (!Number.isSafeInteger(number) || number < 1)
    throw new RangeError(`document number must be a whole positive number, got ${number}`);
  return `${PREFIXES[series]}-${String(number).padStart(6, "0")}`;
}
