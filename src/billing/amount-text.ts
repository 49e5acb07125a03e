import { z } from "zod";
import { isCurrency, MoneyFormatError, toMinor } from "../money/index.js";

/**
 * Amounts as a person sends them: a decimal string, converted exactly to minor units of the
 * currency or refused ("10.505" QAR is refused, never rounded). Messages name the field.
 */

/** A plain, unsigned decimal: digits, then optionally a point and more digits. */
const PLAIN_DECIMAL = /^\d+(\.\d*)?$/;

/**
 * A decimal amount's own text, before its currency is known: exactly a decimal, nothing around it.
 * Money parsing forgives surrounding whitespace (gateway replies carry it), but a price a person
 * sends with a stray space is refused rather than silently changed. `field` names it in messages.
 */
export function decimalAmountText(field = "amount") {
  return z.string({ error: `${field} must be a decimal string such as "100.00"` }).check((payload) => {
    const text = payload.value;
    const shown = JSON.stringify(text);
    let message: string | undefined;
    if (text.trim() !== text)
      message = `${field} ${shown} has spaces around it; send the number alone, e.g. "100.00"`;
    else if (text.startsWith("-") && PLAIN_DECIMAL.test(text.slice(1)))
      message = `${field} ${shown} must not be negative`;
    else if (!PLAIN_DECIMAL.test(text))
      message = `${field} ${shown} is not a decimal number such as "100.00"`;
    if (message) payload.issues.push({ code: "custom", input: text, message });
  });
}

/** An ISO 4217 code, and one of `currencies` (GATEWAY_CURRENCIES) when given. */
export function currencyCode(currencies: readonly string[] | undefined) {
  const allowed = currencies?.join(", ");
  return z.string({ error: "currency must be a string" }).check((payload) => {
    const code = payload.value;
    let message: string | undefined;
    if (!isCurrency(code)) message = "currency must be an ISO 4217 code such as QAR";
    else if (currencies && !currencies.includes(code))
      message = `currency ${code} is not one the gateway account takes; allowed: ${allowed} (GATEWAY_CURRENCIES)`;
    if (message) payload.issues.push({ code: "custom", input: code, message });
  });
}

/** The amount in minor units of the currency (zero included), or why it has none there. */
export function minorUnits(amount: string, currency: string, field = "amount"): number | string {
  try {
    return toMinor(amount, currency);
  } catch (error) {
    if (error instanceof MoneyFormatError) return error.message.replace(/^amount /, `${field} `);
    throw error;
  }
}

/** The amount in minor units of the currency, or why it has none there (decimals, size, zero). */
export function positiveMinorUnits(amount: string, currency: string, field = "amount"): number | string {
  const minor = minorUnits(amount, currency, field);
  // The gateway cannot take a zero charge; a free plan is a trial, not a price.
  return typeof minor === "string" || minor > 0 ? minor : `${field} must be greater than zero`;
}
