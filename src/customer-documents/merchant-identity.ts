import type { Config } from "../config/index.js";
import type { MerchantIdentity } from "../documents/index.js";

/**
 * Rule: the merchant a document names is the configuration's, read when the document is printed
 * (MERCHANT_NAME, MERCHANT_ADDRESS, MERCHANT_TAX_ID, MERCHANT_LOGO_URL). MERCHANT_ADDRESS is one
 * setting printed as several lines: they are separated by "|" or a line break.
 */

export type MerchantConfig = Pick<
  Config,
  "MERCHANT_NAME" | "MERCHANT_ADDRESS" | "MERCHANT_TAX_ID" | "MERCHANT_LOGO_URL"
>;

const LINE_BREAK = /\s*(?:\||\r?\n)\s*/;

export function merchantIdentity(config: MerchantConfig): MerchantIdentity {
  return {
    name: config.MERCHANT_NAME,
    address: (config.MERCHANT_ADDRESS ?? "").split(LINE_BREAK).filter((line) => line !== ""),
    taxId: config.MERCHANT_TAX_ID ?? null,
    logoUrl: config.MERCHANT_LOGO_URL ?? null,
  };
}
