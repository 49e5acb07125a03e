/**
 * Exact non-negative decimals for the values that are not money (quantities, percentages,
 * product max_count) and for the invoice arithmetic on money. A decimal is `units / 10^scale`
 * held in a BigInt, so 1.5 × 0.15 is computed as 225 / 10^3 and never as a float.
 */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

/** Digits, optionally a dot and more digits; no sign, no exponent, no thousands separators. */
const PLAIN = /^\d+(?:\.\d+)?$/;

/**
 * The canonical text of a wire decimal (a JSON number or a numeric string), or undefined when the
 * value is not a plain non-negative decimal. Numbers JavaScript prints in exponent form (1e21,
 * 1e-7) are refused rather than guessed at.
 */
export function decimalText(value: unknown): string | undefined {
  let text: string;
  if (typeof value === "number") text = Number.isFinite(value) ? String(value) : "";
  else if (typeof value === "string") text = value.trim();
  else return undefined;
  return PLAIN.test(text) ? text : undefined;
}

/** Parses text already accepted by decimalText. */
export function parseDecimal(text: string): Decimal {
  const [whole = "0", fraction = ""] = text.split(".");
  return { units: BigInt(`${whole}${fraction}`), scale: fraction.length };
}

export const integerDecimal = (units: bigint | number): Decimal => ({ units: BigInt(units), scale: 0 });

/** The shortest text of a decimal: 1.50 prints as "1.5", 2.0 as "2". */
export function formatDecimal(value: Decimal): string {
  if (value.scale === 0) return value.units.toString();
  const digits = value.units.toString().padStart(value.scale + 1, "0");
  const whole = digits.slice(0, -value.scale);
  const fraction = digits.slice(-value.scale).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Significant decimal places (trailing zeros do not count). */
export function decimalPlaces(value: Decimal): number {
  const text = formatDecimal(value);
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) + rescale(b, scale), scale };
}

/** a − b; callers only subtract what they have checked is not larger. */
export function subtract(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return { units: rescale(a, scale) - rescale(b, scale), scale };
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** Divides by 10^places exactly (a percentage is a multiplication followed by this with 2). */
export function shift(value: Decimal, places: number): Decimal {
  return { units: value.units, scale: value.scale + places };
}

export function compare(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = rescale(a, scale);
  const right = rescale(b, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Rounds to a whole number, halves going up (the values here are never negative). */
export function roundHalfUp(value: Decimal): bigint {
  if (value.scale === 0) return value.units;
  const divisor = 10n ** BigInt(value.scale);
  return (value.units * 2n + divisor) / (divisor * 2n);
}
