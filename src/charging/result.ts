import type { ChargeState } from "../billing/index.js";

/**
 * What processing a charge did, as the charge job returns it (plain JSON: BullMQ stores it) and the
 * dunning run summarises it. An outcome that stayed unknown is not a result: it is thrown as
 * ChargeOutcomeUnknownError so that BullMQ retries, and the retry reconciles.
 */
export type ChargeResult =
  | {
      readonly kind: "paid";
      readonly chargeId: string;
      readonly attemptNumber: number;
      readonly transactionId: string;
    }
  | {
      readonly kind: "declined";
      readonly chargeId: string;
      readonly attemptNumber: number;
      /** retrying (nextAttemptAt says when) or uncollectible (dunning ended or a hard decline). */
      readonly chargeStatus: ChargeState;
      readonly nextAttemptAt: string | null;
      readonly description: string;
    }
  | {
      readonly kind: "token_unusable";
      readonly chargeId: string;
      readonly chargeStatus: ChargeState;
      /** Where the customer saves a new card (startReEnrollment); null when none could be made. */
      readonly checkoutUrl: string | null;
    }
  | {
      readonly kind: "needs_review";
      readonly chargeId: string;
      readonly reason: "outcome_unknown" | "gateway_rejected";
      readonly description: string;
    }
  | { readonly kind: "skipped"; readonly chargeId: string; readonly reason: SkipReason };

/**
 * - settled: paid, canceled, or uncollectible without being forced;
 * - not_due: its next attempt is later;
 * - needs_review: an operator must settle it first;
 * - claimed_elsewhere: another worker claimed it between our read and our claim;
 * - already_recorded: another worker recorded this outcome first;
 * - payment_method_unusable: forced on an uncollectible charge whose card cannot be charged;
 * - collection_paused: the gateway circuit breaker is open (breaker/); it waits, due, until resumed;
 * - awaiting_customer: the charge waits for its payment link to be paid (payment-links/);
 * - link_sent: the subscription pays by link; this call sent the link instead of charging a card;
 * - card_refused_once: the gateway refused the card (-7) for the first time; it is asked again
 *   after TOKEN_REFUSAL_CONFIRM_SECONDS before the card is retired;
 * - gateway_throttled: the gateway answered 429 each time this job sent it; it waits, due, for the
 *   next tick to hand it out.
 */
export type SkipReason =
  | "settled"
  | "not_due"
  | "needs_review"
  | "claimed_elsewhere"
  | "already_recorded"
  | "payment_method_unusable"
  | "collection_paused"
  | "awaiting_customer"
  | "link_sent"
  | "card_refused_once"
  | "gateway_throttled";

export function skipped(chargeId: string, reason: SkipReason): ChargeResult {
  return { kind: "skipped", chargeId, reason };
}
