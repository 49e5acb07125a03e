import { DateTime } from "luxon";
import { toDecimalString } from "../money/index.js";

/**
 * Values as printed. Digits are Latin in both languages (as card statements and the gateway show
 * them) and amounts keep the ISO code after the number, so an amount reads the same in English and
 * Arabic: 1,234.50 QAR. All of it on digits, never through floating point.
 */

/** 123456 QAR → "1,234.56 QAR"; a deduction keeps its sign: "-50.00 QAR". */
export function amountText(minor: number, currency: string): string {
  const decimal = toDecimalString(Math.abs(minor), currency);
  const [whole = "0", fraction] = decimal.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ",");
  const sign = minor < 0 ? "-" : "";
  return `${sign}${grouped}${fraction === undefined ? "" : `.${fraction}`} ${currency}`;
}

/** Basis points as a percentage without trailing zeros: 1500 → "15%", 1250 → "12.5%". */
export function rateText(rateBp: number): string {
  const whole = Math.floor(rateBp / 100);
  const hundredths = String(rateBp % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return `${whole}${hundredths === "" ? "" : `.${hundredths}`}%`;
}

/**
 * A calendar day in the document's zone: "5 Jan 2025", "5 يناير 2025", or on a bilingual
 * document, where one value serves both languages, "2025-01-05".
 */
export function dateText(instant: Date, zone: string, style: "en" | "ar" | "iso"): string {
  const local = DateTime.fromJSDate(instant, { zone });
  if (!local.isValid) throw new RangeError(`cannot show a date in the time zone ${JSON.stringify(zone)}`);
  if (style === "iso") return local.toFormat("yyyy-MM-dd");
  return local
    .reconfigure({ locale: style === "ar" ? "ar" : "en-GB", numberingSystem: "latn" })
    .toFormat("d MMM yyyy");
}
