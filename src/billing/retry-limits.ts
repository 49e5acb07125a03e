/**
 * Card-network limits on retrying a declined payment with the same card and amount. Exceeding them
 * brings per-transaction fees and fines for the merchant, so a dunning schedule that could exceed
 * them is refused when it is configured. The card token does not tell which network the card
 * belongs to, so every schedule must satisfy all the rules.
 *
 * Windows are closed ([t, t + window]): the networks do not say whether an attempt exactly one
 * window later still counts, so it is counted.
 *
 * Rules as of May 2025: Visa allows up to 20 reattempts per card and amount in 30 days for
 * declines that may be reattempted (before, 15); declines the issuer will never approve (Visa's
 * category 1: lost, stolen, invalid account, …) must never be retried, which decline.ts's hard
 * declines enforce. Mastercard: 10 attempts in 24 hours, 35 in 30 days.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export interface RetryLimitRule {
  readonly network: "Visa" | "Mastercard";
  /** Visa limits re-attempts after the first decline; Mastercard counts every attempt. */
  readonly counts: "retries" | "attempts";
  readonly max: number;
  readonly windowMs: number;
  readonly window: string;
}

export const RETRY_LIMIT_RULES: readonly RetryLimitRule[] = [
  { network: "Visa", counts: "retries", max: 20, windowMs: 30 * DAY_MS, window: "30 days" },
  { network: "Mastercard", counts: "attempts", max: 10, windowMs: 24 * HOUR_MS, window: "24 hours" },
  { network: "Mastercard", counts: "attempts", max: 35, windowMs: 30 * DAY_MS, window: "30 days" },
];

export interface RetryLimitViolation {
  readonly rule: RetryLimitRule;
  /** How many attempts (or retries) fall in the worst window. */
  readonly count: number;
  /** Times (ms after the first attempt) of the first and last attempt in that window. */
  readonly fromMs: number;
  readonly toMs: number;
  readonly message: string;
}

/** "between day 1 and day 16", or in hours when the schedule is not in whole days. */
function describeSpan(fromMs: number, toMs: number): string {
  if (fromMs % DAY_MS === 0 && toMs % DAY_MS === 0) {
    return `between day ${fromMs / DAY_MS} and day ${toMs / DAY_MS}`;
  }
  const hours = (ms: number) => +(ms / HOUR_MS).toFixed(2);
  return `between hour ${hours(fromMs)} and hour ${hours(toMs)}`;
}

/** The largest number of times that fit in one closed window, and where that window is. */
function densestWindow(
  times: readonly number[],
  windowMs: number,
): { count: number; from: number; to: number } {
  let best = { count: 0, from: 0, to: 0 };
  let end = 0;
  for (let start = 0; start < times.length; start += 1) {
    end = Math.max(end, start);
    while (end + 1 < times.length && times[end + 1]! - times[start]! <= windowMs) end += 1;
    const count = end - start + 1;
    if (count > best.count) best = { count, from: times[start]!, to: times[end]! };
  }
  return best;
}

/**
 * Checks a schedule of attempt times in milliseconds after the first (declined) attempt, which is
 * the earliest time. Returns the first rule broken, or null. Usable on a planned schedule as well
 * as on the attempts actually made.
 */
export function findRetryLimitViolation(attemptTimesMs: readonly number[]): RetryLimitViolation | null {
  const times = [...attemptTimesMs].sort((a, b) => a - b);
  for (const rule of RETRY_LIMIT_RULES) {
    const counted = rule.counts === "retries" ? times.slice(1) : times;
    const worst = densestWindow(counted, rule.windowMs);
    if (worst.count > rule.max) {
      return {
        rule,
        count: worst.count,
        fromMs: worst.from,
        toMs: worst.to,
        message:
          `${rule.network} allows at most ${rule.max} ${rule.counts} per card and amount in ${rule.window}, ` +
          `but this schedule makes ${worst.count} ${rule.counts} ${describeSpan(worst.from, worst.to)} after the first failure`,
      };
    }
  }
  return null;
}
