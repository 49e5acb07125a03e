/**
 * The gateway circuit breaker's rule. One card refused with -7 is that card's problem; dozens in a
 * few minutes are ours: a gateway that lost its state, a wrong API key, the test environment
 * instead of production. So are many payments "not found" that we recorded as sent, and
 * authentication refusals (-1 unauthorized, -8 invalid token format). Acting on each of those as
 * if it were about one card would mark every subscription unpaid, send invoices for money already
 * taken, or retry payments that went through. Pure: the signals are counted in Postgres.
 *
 * Each threshold counts signals within the window since the breaker was last closed; 0 turns that
 * signal off. Tripping stops collection until an operator resumes it.
 */
export const BREAKER_SIGNALS = ["token_refused", "not_found", "auth_refused"] as const;

export type BreakerSignal = (typeof BREAKER_SIGNALS)[number];

export interface BreakerThresholds {
  /** Distinct cards refused with -7. */
  readonly tokenRefused: number;
  /** Attempts released because CheckStatus did not know their orderId. */
  readonly notFound: number;
  /** Calls answered -1 or -8. */
  readonly authRefused: number;
}

export type BreakerCounts = Readonly<Record<BreakerSignal, number>>;

export type BreakerVerdict =
  | { readonly trip: false }
  | { readonly trip: true; readonly signal: BreakerSignal; readonly reason: string };

const THRESHOLD: Record<BreakerSignal, keyof BreakerThresholds> = {
  token_refused: "tokenRefused",
  not_found: "notFound",
  auth_refused: "authRefused",
};

const DESCRIBED: Record<BreakerSignal, string> = {
  token_refused: "different cards refused with -7 (no recurring or autosave payment for the token)",
  not_found: 'payments we sent that CheckStatus reports "not found"',
  auth_refused: "calls refused with -1 (unauthorized) or -8 (invalid token)",
};

export function breakerVerdict(
  counts: BreakerCounts,
  thresholds: BreakerThresholds,
  windowSeconds: number,
): BreakerVerdict {
  for (const signal of BREAKER_SIGNALS) {
    const threshold = thresholds[THRESHOLD[signal]];
    if (threshold > 0 && counts[signal] >= threshold) {
      return {
        trip: true,
        signal,
        reason: `${counts[signal]} ${DESCRIBED[signal]} within ${windowSeconds} s (threshold ${threshold})`,
      };
    }
  }
  return { trip: false };
}
