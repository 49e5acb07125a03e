import { isCurrency } from "../../money/index.js";
import type { MerchantAccount } from "./merchant.js";

/**
 * Resolves a requested currency (default QAR, any letter case). "invalid" when it is not an ISO 4217
 * code (legacy -3, the application cannot support it); "not_enabled" when it is a valid code the
 * merchant has no application data for (legacy -20).
 */
export function resolveCurrency(
  merchant: MerchantAccount,
  requested: string | undefined,
): { currency: string } | { problem: "invalid" | "not_enabled" } {
  const currency = (requested ?? "QAR").toUpperCase();
  if (!isCurrency(currency)) return { problem: "invalid" };
  if (!merchant.currencies.includes(currency)) return { problem: "not_enabled" };
  return { currency };
}
