/**
 * value × numerator ÷ denominator in whole minor units, rounded half up, exact (BigInt): the one
 * rounding rule of proration and percentage discounts, and the gateway's own for invoice discounts.
 */
export function mulDivHalfUp(value: number, numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`amount must be a whole non-negative number, got ${value}`);
  if (!Number.isSafeInteger(numerator) || numerator < 0)
    throw new RangeError(`numerator must be a whole non-negative number, got ${numerator}`);
  if (!Number.isSafeInteger(denominator) || denominator <= 0)
    throw new RangeError(`denominator must be a whole positive number, got ${denominator}`);
  const product = BigInt(value) * BigInt(numerator);
  const d = BigInt(denominator);
  return Number((product * 2n + d) / (2n * d));
}
