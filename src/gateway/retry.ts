import { setTimeout as sleep } from "node:timers/promises";
import { type BackoffOptions, exponentialBackoff } from "../billing/index.js";
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

/** How a read is repeated: the full-jitter backoff between tries (billing/backoff.ts), this many times. */
export interface ReadRetryPolicy extends Pick<BackoffOptions, "baseMs" | "capMs" | "random"> {
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
      await sleep(exponentialBackoff({ ...policy, attempt: retry, jitter: "full" }));
    }
  }
}
