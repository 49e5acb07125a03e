import { toDecimalString } from "../../money/index.js";
import type { Amount, MessageLanguage } from "./model.js";

/**
 * An amount as a customer reads it, built on digits from the integer minor units
 * (toDecimalString), never through a float. English puts the ISO code first: "QAR 1,234.50".
 * Arabic puts the number first and the Gulf currencies' Arabic abbreviations after it, as Qatari
 * banks print them: "1,234.50 ر.ق."; other currencies keep their ISO code.
 *
 * Digits are Western (0-9) in Arabic too: Gulf banks, card statements and the gateway's pages show
 * amounts that way, the customer portal does (src/http/portal/format.ts), and the receipt numbers
 * and card digits beside them are Western anyway, so one message never mixes two digit sets.
 */

const ARABIC_SYMBOLS: ReadonlyMap<string, string> = new Map([
  ["QAR", "ر.ق."],
  ["SAR", "ر.س."],
  ["AED", "د.إ."],
  ["KWD", "د.ك."],
  ["BHD", "د.ب."],
  ["OMR", "ر.ع."],
]);

export function formatAmount(amount: Amount, language: MessageLanguage): string {
  const [signed = "", fraction] = toDecimalString(amount.minor, amount.currency).split(".");
  const sign = signed.startsWith("-") ? "-" : "";
  const grouped = signed.slice(sign.length).replace(/\B(?=(\d{3})+$)/g, ",");
  const number = `${sign}${grouped}${fraction === undefined ? "" : `.${fraction}`}`;
  if (language === "ar") return `${number} ${ARABIC_SYMBOLS.get(amount.currency) ?? amount.currency}`;
  return `${amount.currency} ${number}`;
}
