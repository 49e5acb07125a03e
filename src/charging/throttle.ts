/**
 * Rule (pure): how the gateway's "too many requests" (HTTP 429) slows us down. Each one halves the
 * rate we allow ourselves (never below one call a second), and the rate then climbs back linearly
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

/** The slowdown after a 429 at `now`: half of what was allowed then. */
export function slowedDown(
  rate: number,
  slowdown: Slowdown | null,
  now: number,
  recoverMs: number,
): Slowdown {
  return { rate: Math.max(1, Math.floor(allowedRate(rate, slowdown, now, recoverMs) / 2)), at: now };
}
