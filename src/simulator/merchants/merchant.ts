import type { SimMerchant } from "../types.js";

/**
 * A simulator merchant account: the shared SimMerchant plus the simulator-only daily settlement
 * cutoff ("HH:MM" GMT, or null for a merchant whose payments never settle) and rate limit (API
 * calls admitted in any one second of real time, or null for no limit; see rate/).
 */
export interface MerchantAccount extends SimMerchant {
  settlementCutoff: string | null;
  rateLimitPerSecond: number | null;
}

export type MerchantSettings = Omit<MerchantAccount, "id" | "apiKey">;

export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const DEFAULT_MERCHANT_SETTINGS: MerchantSettings = Object.freeze({
  name: "Default merchant",
  mode: "test",
  currencies: ["QAR"],
  card: true,
  wallet: false,
  void: true,
  successUrl: null,
  failureUrl: null,
  webhookUrl: null,
  settlementCutoff: "20:00",
  rateLimitPerSecond: null,
});

/** The merchant as /_sim/merchants shows it (snake_case, like the rest of the HTTP surface). */
export function merchantView(merchant: MerchantAccount) {
  return {
    id: merchant.id,
    api_key: merchant.apiKey,
    name: merchant.name,
    mode: merchant.mode,
    currencies: merchant.currencies,
    card: merchant.card,
    wallet: merchant.wallet,
    void: merchant.void,
    success_url: merchant.successUrl,
    failure_url: merchant.failureUrl,
    webhook_url: merchant.webhookUrl,
    settlement_cutoff: merchant.settlementCutoff,
    rate_limit_per_second: merchant.rateLimitPerSecond,
  };
}
