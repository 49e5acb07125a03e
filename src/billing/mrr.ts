import type { IntervalUnit } from "./interval-units.js";

/**
 * Monthly recurring revenue, exact. A plan's price per month is its amount over its interval in
 * months (a year is 12, a week 12/52 of a month, a day 12/365), kept as a fraction; the fractions of
 * every subscription are summed exactly and the total is rounded half up to a whole minor unit
 * once, so MRR never drifts by a cent per plan. Pure; amounts are integer minor units.
 */

export interface PlanShare {
  /** The price of one period; negative for what coupons take off it. */
  amountMinor: number;
  intervalUnit: IntervalUnit;
  intervalCount: number;
  /** How many subscriptions are on the plan. */
  subscriptions: number;
}

/** Months in one interval unit, as numerator / denominator. */
const MONTHS_PER_UNIT: Record<IntervalUnit, readonly [bigint, bigint]> = {
  day: [12n, 365n],
  week: [12n, 52n],
  month: [1n, 1n],
  year: [12n, 1n],
};

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** The MRR, in minor units, of these plans' subscriptions (all in one currency). */
export function monthlyRecurringMinor(shares: readonly PlanShare[]): number {
  let numerator = 0n;
  let denominator = 1n;
  for (const share of shares) {
    if (share.subscriptions === 0) continue;
    const [months, per] = MONTHS_PER_UNIT[share.intervalUnit];
    // amount per interval ÷ (intervalCount × months per unit) = amount × per ÷ (count × months)
    const n = BigInt(share.amountMinor) * BigInt(share.subscriptions) * per;
    const d = BigInt(share.intervalCount) * months;
    numerator = numerator * d + n * denominator;
    denominator *= d;
    const common = gcd(numerator, denominator);
    numerator /= common;
    denominator /= common;
  }
  // Half up: floor((2n + d) / 2d).
  return Number((2n * numerator + denominator) / (2n * denominator));
}
