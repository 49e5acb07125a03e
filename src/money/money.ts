import { exponentOf } from "./currencies.js";

/**
 * Money is an integer count of a currency's minor units (fils for QAR, 1/1000 dinar for KWD, yen
 * for JPY). Conversion to and from the gateway's decimal strings is done on digits, never with
 * floating point arithmetic, so a value either converts exactly or is refused.
 */
export interface Money {
  readonly minor: number;
  readonly currency: string;
}

export class MoneyFormatError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = "MoneyFormatError";
  }
}

export interface ParseOptions {
  /** Negative amounts are refused unless asked for (refunds and credits are modelled as positive). */
  allowNegative?: boolean;
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d*))?$/;

/** Turns a JS number into the digits it denotes, refusing values that are not plain decimals. */
function numberToDecimalString(value: number): string {
  if (!Number.isFinite(value)) throw new MoneyFormatError(`amount ${value} is not a finite number`);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent notation only appears for very large or very small magnitudes; expand it exactly.
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/i.exec(text);
  if (!match) throw new MoneyFormatError(`amount ${text} is not a decimal number`);
  const [, sign, lead, rest = "", exp] = match;
  const digits = `${lead}${rest}`;
  const shift = Number(exp) - rest.length;
  if (shift >= 0) return `${sign}${digits}${"0".repeat(shift)}`;
  const point = digits.length + shift;
  return point > 0
    ? `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
    : `${sign}0.${"0".repeat(-point)}${digits}`;
}

/**
 * Parses a decimal amount ("100", "100.5", "100.50", or a JS number) into minor units of the
 * currency. Too many decimals, NaN, signs where not allowed and unsafe magnitudes are errors.
 * Whitespace around the text is ignored (gateway replies carry it); an amount a person typed is
 * checked for it before it comes here (billing/plan.ts refuses it), so nothing they sent is changed.
 */
export function toMinor(amount: string | number, currency: string, options: ParseOptions = {}): number {
  const exponent = exponentOf(currency);
  const text = typeof amount === "number" ? numberToDecimalString(amount) : amount.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new MoneyFormatError(`amount ${JSON.stringify(amount)} is not a decimal number`);
  const [, minus, whole = "0", fraction = ""] = match;
  const significant = fraction.replace(/0+$/, "");
  if (significant.length > exponent) {
    throw new MoneyFormatError(
      `amount ${JSON.stringify(amount)} has more than ${exponent} decimal place(s) allowed for ${currency}`,
    );
  }
  const digits = `${whole}${fraction.padEnd(exponent, "0").slice(0, exponent)}`;
  const magnitude = BigInt(digits);
  if (magnitude > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new MoneyFormatError(`amount ${JSON.stringify(amount)} is too large`);
  }
  const minor = Number(magnitude);
  if (minus && minor !== 0) {
    if (!options.allowNegative)
      throw new MoneyFormatError(`amount ${JSON.stringify(amount)} must not be negative`);
    return -minor;
  }
  return minor;
}

/** Formats minor units as the gateway's decimal string with exactly the currency's decimals. */
export function toDecimalString(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new MoneyFormatError(`minor amount ${minor} is not a safe integer`);
  const exponent = exponentOf(currency);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0");
  if (exponent === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

export function money(minor: number, currency: string): Money {
  exponentOf(currency);
  if (!Number.isSafeInteger(minor)) throw new MoneyFormatError(`minor amount ${minor} is not a safe integer`);
  return { minor, currency };
}

export function formatMoney(value: Money): string {
  return `${toDecimalString(value.minor, value.currency)} ${value.currency}`;
}
