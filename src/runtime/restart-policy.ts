/**
 * Rule: a role that fails is restarted after a delay that starts at 1 s and doubles with each
 * failure in a row, up to 30 s, so a role that cannot run (its database gone, a bug) neither spins
 * nor waits long once the cause clears. A run that lasted 60 s before failing counts as healthy:
 * the count starts again and the restart comes after 1 s. Pure: the caller supplies the times
 * (monotonic milliseconds) and keeps the count.
 */

export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** A run at least this long before its failure resets the backoff. */
  healthyAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  healthyAfterMs: 60_000,
};

export interface RestartDecision {
  /** Failures in a row, this one included. */
  failures: number;
  delayMs: number;
}

/**
 * `failuresBefore` is what the previous decision returned (0 for a role that never failed);
 * `startedAt` is when the failed run (or the restart attempt that failed) began.
 */
export function nextRestart(
  failuresBefore: number,
  run: { startedAt: number; failedAt: number },
  policy: RestartPolicy = DEFAULT_RESTART_POLICY,
): RestartDecision {
  const healthy = run.failedAt - run.startedAt >= policy.healthyAfterMs;
  const failures = healthy ? 1 : failuresBefore + 1;
  // Capped before it is computed, so a role failing for days never overflows to Infinity.
  const doublings = Math.min(failures - 1, 30);
  return { failures, delayMs: Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** doublings) };
}
