import { setTimeout as sleep } from "node:timers/promises";
import { GatewayError } from "./errors/index.js";
import { type GatewayOperation, isMoneyMoving } from "./operations.js";

/**
 * Whether repeating the failed request cannot do harm and may help. Pure, so callers (dunning,
 * reconciliation) can apply the same rules to calls the client itself will not repeat.
 */
export function isRetrySafe(error: unknown): boolean {
  // Only our classified failures carry the facts needed to decide; anything else is a bug to surface.
  if (!(error instanceof GatewayError)) return false;
  // The gateway may have acted on the first attempt: reconcile (check status) instead of repeating.
  if (error.outcomeUnknown) return false;
  // A definite answer (decline, rejection, not found, unknown code) comes back the same next time.
  return error.retryable;
}

export interface BackoffOptions {
  /** Delay ceiling before the first retry; doubles per attempt. */
  baseMs: number;
  /** No delay exceeds this, however many attempts. */
  capMs: number;
  /** Source of jitter in [0, 1); injectable for tests. */
  random?: () => number;
}

/** "Full jitter" exponential backoff: uniform in [0, min(cap, base * 2^attempt)). */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** attempt);
  return Math.floor((options.random ?? Math.random)() * ceiling);
}

export interface ReadRetryPolicy extends BackoffOptions {
  /** Extra attempts after the first. */
  retries: number;
}

/**
 * Runs a read-only call, repeating it while the failure is retry-safe. Money-moving operations are
 * run exactly once whatever the policy says: the client never repeats them on its own.
 */
export async function withReadRetries<T>(
  operation: GatewayOperation,
  policy: ReadRetryPolicy,
  attempt: () => Promise<T>,
): Promise<T> {
  if (isMoneyMoving(operation)) return attempt();
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      // A failure of another operation (the Authorize behind a bearer call) had its own retries.
      const own = error instanceof GatewayError && error.operation === operation;
      if (!own || retry >= policy.retries || !isRetrySafe(error)) throw error;
      await sleep(backoffDelay(retry, policy));
    }
  }
}
