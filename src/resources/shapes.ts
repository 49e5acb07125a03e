import { z } from "zod";
import { toDecimalString } from "../money/index.js";

/**
 * Shapes every public resource shares, whether the merchant API answers with it or a webhook
 * carries it: money as integer minor units plus the decimal string, and timestamps as ISO 8601 UTC.
 */

export const moneySchema = z
  .object({
    amount: z.string().describe('Decimal string with the currency\'s decimals, e.g. "100.00"'),
    amount_minor: z.number().int().describe("The same amount in minor units (fils for QAR)"),
    currency: z.string().length(3).describe("ISO 4217 code"),
  })
  .meta({ id: "Money" });

export type MoneyBody = z.infer<typeof moneySchema>;

export function presentMoney(minor: number, currency: string): MoneyBody {
  return { amount: toDecimalString(minor, currency), amount_minor: minor, currency };
}

export const timestamp = z.iso.datetime().describe("ISO 8601, UTC");

export function iso(value: Date): string;
export function iso(value: Date | null): string | null;
export function iso(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}
