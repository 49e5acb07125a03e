import type { DateTime } from "luxon";
import type { ChargeState } from "../billing/index.js";

/**
 * May a new attempt of this charge be sent now? Pure; decided on a snapshot, then made safe by the
 * claim (record-attempt.ts), which only succeeds if nobody changed the charge in between.
 *
 * - scheduled / retrying: when next_attempt_at has come;
 * - retrying / uncollectible: at once when collection resumes on a new card (the subscription is
 *   past_due or unpaid and its current card has not been tried on this charge yet; the enrollment
 *   service announces that as `payment_method.replaced` with resume_collection);
 * - any of the three at once when forced (an operator's "retry now", a dunning run over every
 *   retrying charge; uncollectible → processing is allowed by the charge state machine);
 * - processing: never; its open attempt is reconciled instead;
 * - needs_review: never; an operator settles it;
 * - awaiting_payment: never; the customer pays it through its payment link (payment-links/);
 * - paid, canceled: never, they are final.
 */
export type Readiness =
  | "ready"
  | "settled"
  | "not_due"
  | "needs_review"
  | "in_progress"
  | "awaiting_customer";

export interface ChargeTiming {
  readonly status: ChargeState;
  readonly nextAttemptAt: DateTime | null;
  /** Collection resumes on a new card (see above). */
  readonly resumable: boolean;
}

export function readiness(charge: ChargeTiming, now: DateTime, force: boolean): Readiness {
  const { status, nextAttemptAt, resumable } = charge;
  switch (status) {
    case "paid":
    case "canceled":
      return "settled";
    case "uncollectible":
      return force || resumable ? "ready" : "settled";
    case "needs_review":
      return "needs_review";
    case "awaiting_payment":
      return "awaiting_customer";
    case "processing":
      return "in_progress";
    case "scheduled":
    case "retrying": {
      const due = nextAttemptAt !== null && nextAttemptAt <= now;
      return force || due || (status === "retrying" && resumable) ? "ready" : "not_due";
    }
  }
}
