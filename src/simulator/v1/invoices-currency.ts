import { isCurrency } from "../../money/index.js";
import type { SimMerchant } from "../types.js";
import { fieldError } from "./invoices-validation.js";

/**
 * The currency of an invoice or product. The spec's default is QAR; the simulator reads that as
 * the account's first currency, which is QAR for the default merchant, so a merchant set up for
 * KWD alone is not handed invoices it cannot take.
 */
export const defaultCurrency = (merchant: SimMerchant): string =>
  (merchant.currencies[0] ?? "QAR").toUpperCase();

/** Codes are matched case-insensitively and answered in upper case. */
export function merchantCurrency(merchant: SimMerchant, requested: string | undefined): string {
  if (requested === undefined) return defaultCurrency(merchant);
  const code = requested.trim().toUpperCase();
  if (!isCurrency(code))
    throw fieldError("currency", `${JSON.stringify(requested)} is not a valid ISO currency code`);
  if (!merchant.currencies.some((supported) => supported.toUpperCase() === code)) {
    throw fieldError("currency", `${code} is not supported by this account`);
  }
  return code;
}
