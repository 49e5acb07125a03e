/**
 * The gateway circuit breaker's rule. One card refused with -7 is that card's problem; dozens in a
 * few minutes are ours: a gateway that lost its state, a wrong API key, the test environment
 * instead of production. So are authentication refusals (-1 unauthorized, -8 invalid token
 * format), and status checks that no longer find the payments we sent. Acting on each of those as
 * if it were about one card would mark every subscription unpaid, send invoices for money already
 * taken, or retry payments that went through. Pure: the signals are counted in Postgres.
 *
 * "Not found" alone is also what an ordinary 5xx or timeout that never reached the gateway gives,
 * so it counts only when almost every status check of the window finds nothing: a gateway that
 * forgot finds none of the payments it took, a flaky one still finds those it applied
 * (`found`, recorded by the same checks).
 *
 * A status check that fails (an error, no reply, a malformed reply) settles nothing: one such
 * attempt is held and asked again, but a gateway whose CheckStatus fails for every payment can
 * settle no lost reply at all, and each charge would go to review one by one while new payments
 * went on being sent. So failures count once per attempt, when they are at least as many as the
 * window's status checks that answered (`found`, `not_found`): a status check that still answers
 * most of the time is flaky, not broken.
 *
 * Each threshold counts signals within the window since the breaker was last closed; 0 turns that
 * signal off. Tripping stops new money-taking calls until an operator resumes it.
 */
export const BREAKER_SIGNALS = [
  "token_refused",
  "not_found",
  "auth_refused",
  "found",
  "status_check_failed",
] as const;

export type BreakerSignal = (typeof BREAKER_SIGNALS)[number];

export interface BreakerThresholds {
  /** Distinct cards refused with -7. */
  readonly tokenRefused: number;
  /** Attempts released because CheckStatus did not know their orderId… */
  readonly notFound: number;
  /** …when at least this share (0–1) of the window's status checks found nothing. */
  readonly notFoundShare: number;
  /** Calls answered -1 or -8. */
  readonly authRefused: number;
  /** Attempts whose CheckStatus failed, when no fewer than the status checks that answered. */
  readonly statusCheckFailed: number;
}

export type BreakerCounts = Readonly<Record<BreakerSignal, number>>;

export type BreakerVerdict =
  | { readonly trip: false }
  | { readonly trip: true; readonly signal: Exclude<BreakerSignal, "found">; readonly reason: string };

export function breakerVerdict(
  counts: BreakerCounts,
  thresholds: BreakerThresholds,
  windowSeconds: number,
): BreakerVerdict {
  const over = (count: number, threshold: number) => threshold > 0 && count >= threshold;
  const within = `within ${windowSeconds} s`;
  if (over(counts.token_refused, thresholds.tokenRefused)) {
    return {
      trip: true,
      signal: "token_refused",
      reason: `${counts.token_refused} different cards refused with -7 (no recurring or autosave payment for the token) ${within} (threshold ${thresholds.tokenRefused})`,
    };
  }
  if (over(counts.auth_refused, thresholds.authRefused)) {
    return {
      trip: true,
      signal: "auth_refused",
      reason: `${counts.auth_refused} calls refused with -1 (unauthorized) or -8 (invalid token) ${within} (threshold ${thresholds.authRefused})`,
    };
  }
  const checks = counts.not_found + counts.found;
  if (over(counts.not_found, thresholds.notFound) && counts.not_found >= thresholds.notFoundShare * checks) {
    return {
      trip: true,
      signal: "not_found",
      reason: `${counts.not_found} of ${checks} status checks of payments we sent found nothing ${within} (threshold ${thresholds.notFound}, share ${thresholds.notFoundShare})`,
    };
  }
  if (
    over(counts.status_check_failed, thresholds.statusCheckFailed) &&
    counts.status_check_failed >= checks
  ) {
    return {
      trip: true,
      signal: "status_check_failed",
      reason: `${counts.status_check_failed} status checks of payments we sent failed (an error, no reply or a malformed reply) and ${checks} answered ${within} (threshold ${thresholds.statusCheckFailed})`,
    };
  }
  return { trip: false };
}
