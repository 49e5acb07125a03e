/**
 * Delays between transport-level retries: the gateway client repeating a read, resolving an attempt
 * whose outcome is unknown (e.g. by repeating the status check), a message or a payment record sent
 * again. "Full jitter" spreads workers that failed together so they do not hit the gateway again in
 * lockstep. Card retries after a decline follow the dunning policy instead.
 */
export interface BackoffOptions {
  /** 0 for the first retry. */
  attempt: number;
  baseMs: number;
  capMs: number;
  jitter: "full" | "none";
  /** A source of numbers in [0, 1); injectable so that tests and replays are deterministic. */
  random?: () => number;
}

/** Past this exponent the delay is far beyond any cap, and 2 ** attempt would overflow. */
const MAX_EXPONENT = 1000;

/** Milliseconds to wait: min(cap, base × 2^attempt), or a uniform integer below it with full jitter. */
export function exponentialBackoff({
  attempt,
  baseMs,
  capMs,
  jitter,
  random = Math.random,
}: BackoffOptions): number {
  if (!Number.isSafeInteger(attempt) || attempt < 0) {
    throw new RangeError(`attempt must be a non-negative integer, got ${attempt}`);
  }
  if (!Number.isFinite(baseMs) || baseMs < 0) throw new RangeError(`baseMs must be >= 0, got ${baseMs}`);
  if (!Number.isFinite(capMs) || capMs < 0) throw new RangeError(`capMs must be >= 0, got ${capMs}`);
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, MAX_EXPONENT));
  if (jitter === "none") return Math.floor(ceiling);
  const draw = random();
  if (!(draw >= 0 && draw < 1)) throw new RangeError(`random() must return a number in [0, 1), got ${draw}`);
  return Math.floor(draw * ceiling);
}
