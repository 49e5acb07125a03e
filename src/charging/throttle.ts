/**
 * Rule (pure): how the gateway's "too many requests" (HTTP 429) slows us down. A 429 halves the
 * rate we allow ourselves (never below one call a second), once a second at most: the 429s of one
 * burst answer the same excess and halve it once, not once each. The rate then climbs back linearly
 * to the configured one over `recoverMs` (additive increase, multiplicative decrease, as TCP
 * does), so a burst of 429s backs off fast and a quiet gateway gets its full rate back within
 * seconds. The process limiter (gateway-limiter.ts) and the shared budget's script
 * (queue/gateway-budget.ts, the same arithmetic in Lua) both follow it.
 */

/** The rate a 429 left us at, and when (ms on the clock that paces the calls). */
export interface Slowdown {
  readonly rate: number;
  readonly at: number;
}

/** Recovery from half to the full rate, by default. */
export const DEFAULT_RECOVER_MS = 10_000;

/** The rate allowed now: the configured rate, or on its way back to it after a 429. */
export function allowedRate(rate: number, slowdown: Slowdown | null, now: number, recoverMs: number): number {
  if (!slowdown) return rate;
  return Math.min(rate, slowdown.rate + Math.floor(((now - slowdown.at) * rate) / recoverMs));
}

/** A 429 within this long of the last halving answers the same burst. */
export const HALVE_AT_MOST_EVERY_MS = 1_000;

/** The slowdown after a 429 at `now`: half of what was allowed then, unless just halved. */
export function slowedDown(
  rate: number,
  slowdown: Slowdown | null,
  now: number,
  recoverMs: number,
): Slowdown {
  if (slowdown && now - slowdown.at < HALVE_AT_MOST_EVERY_MS) return slowdown;
  return { rate: Math.max(1, Math.floor(allowedRate(rate, slowdown, now, recoverMs) / 2)), at: now };
}
