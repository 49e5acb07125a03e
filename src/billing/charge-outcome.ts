import type { DateTime } from "luxon";
import { assertChargeTransition, type ChargeState } from "./charge-states.js";
import { type DeclineKind, type DeclineReason, explainDecline } from "./decline.js";
import { type DunningPolicy, nextRetry, type TerminalAction } from "./dunning.js";
import { assertTransition, type SubscriptionState } from "./subscription-states.js";

/**
 * The charge worker's decision table: given what the gateway said about one attempt, where do the
 * charge and its subscription go, when is the next attempt, and what is recorded. Pure, so the
 * worker only persists the result (in one transaction) and every rule is tested here.
 */

export type AttemptOutcome =
  /** GetnewPayment `result: 1`. */
  | { readonly kind: "approved"; readonly transactionId?: string | null }
  /** GetnewPayment `result: 0`; the description is the gateway's free text. */
  | { readonly kind: "declined"; readonly description: string | number | null }
  /**
   * Still unknown after the worker's transport-level retries and status checks: the card may have
   * been charged, so nobody may try again until a human settles it.
   */
  | { readonly kind: "unknown" }
  /**
   * The token no longer works: found expired or deactivated before sending (then no attempt was
   * made and attemptsMade may be 0), or the gateway answered -7.
   */
  | { readonly kind: "token_unusable"; readonly description?: string | null }
  /**
   * The gateway refused the request itself for a reason on the merchant's side (negative result
   * such as -1, -3, -10, -20): no money moved, but retrying will not help until someone fixes it.
   */
  | { readonly kind: "rejected"; readonly code: number; readonly description?: string | null }
  /**
   * CheckStatus found SUCCESS for an attempt recorded as declined without the gateway's
   * transaction id (a bare `result: 0`, trusted before such replies counted as unknown):
   * the money was taken after all, so the charge, waiting since for its next attempt, is paid by
   * that attempt instead. No new attempt is reported, so attemptsMade may be 0 (a new card since).
   */
  | { readonly kind: "found_paid"; readonly transactionId: string };

export interface ChargeOutcomeInput {
  readonly chargeState: ChargeState;
  readonly subscriptionState: SubscriptionState;
  readonly outcome: AttemptOutcome;
  readonly policy: DunningPolicy;
  /**
   * Attempts of this charge on this card, including the one being reported. Network retry limits
   * are per card, so the worker restarts the count (and firstFailedAt) when a new card is used.
   */
  readonly attemptsMade: number;
  /** When an earlier attempt of this charge on this card first failed; null if none did. */
  readonly firstFailedAt: DateTime | null;
  /** When the outcome became known; taken as the time of the attempt for spacing retries. */
  readonly now: DateTime;
}

export type UncollectibleReason = "hard_decline" | "retries_exhausted" | "token_unusable";

export type ChargeEvent =
  | { readonly type: "charge.paid"; readonly attempt: number; readonly transactionId: string | null }
  /**
   * The money was taken although the subscription had already been canceled (an attempt in flight
   * when it was canceled immediately, approved afterwards). Nothing is refunded automatically: an
   * operator decides, and refunds with `billing charges refund` if it is owed.
   */
  | {
      readonly type: "charge.paid_after_cancellation";
      readonly attempt: number;
      readonly transactionId: string | null;
    }
  | {
      readonly type: "charge.declined";
      readonly attempt: number;
      readonly decline: DeclineKind;
      readonly reason: DeclineReason;
      readonly description: string;
    }
  | { readonly type: "charge.retry_scheduled"; readonly attempt: number; readonly at: DateTime }
  | { readonly type: "charge.uncollectible"; readonly reason: UncollectibleReason }
  | {
      readonly type: "charge.needs_review";
      readonly reason: "outcome_unknown" | "gateway_rejected";
      readonly code: number | null;
      readonly description: string | null;
    }
  | { readonly type: "payment_method.unusable"; readonly description: string | null }
  | {
      readonly type: "subscription.state_changed";
      readonly from: SubscriptionState;
      readonly to: SubscriptionState;
    };

export interface ChargeOutcomeResult {
  readonly chargeState: ChargeState;
  /** When the worker should send the next attempt; null when none is planned. */
  readonly nextAttemptAt: DateTime | null;
  /** To store on the charge: set by the first failure, kept afterwards. */
  readonly firstFailedAt: DateTime | null;
  /** null when the subscription stays as it is. */
  readonly subscriptionChange: { readonly from: SubscriptionState; readonly to: SubscriptionState } | null;
  readonly events: readonly ChargeEvent[];
}

/** Which way collection went, as far as the subscription is concerned. */
type Collection = "paid" | "retrying" | "failed";

function terminalState(action: TerminalAction): SubscriptionState {
  return action === "cancel" ? "canceled" : "unpaid";
}

/**
 * The subscription follows its charge only while the charge is what decides its standing:
 * - `active` + paid: no change; the renewal was recorded when the period began.
 * - `past_due` + retrying: stays past_due; `unpaid` stays unpaid until a payment succeeds.
 * - `paused`, `canceled`: a late outcome of a charge created before the pause or cancellation
 *   changes the charge only; the merchant's decision stands. A late approval of a canceled
 *   subscription's charge is also reported as `charge.paid_after_cancellation`, for an operator.
 * - `pending_enrollment`: its first payment goes through the hosted checkout, not this path.
 */
function subscriptionAfter(
  state: SubscriptionState,
  collection: Collection,
  policy: DunningPolicy,
): SubscriptionState | null {
  switch (collection) {
    case "paid":
      return state === "trialing" || state === "past_due" || state === "unpaid" ? "active" : null;
    case "retrying":
      return state === "trialing" || state === "active" ? "past_due" : null;
    case "failed":
      return state === "trialing" || state === "active" || state === "past_due"
        ? terminalState(policy.terminalAction)
        : null;
  }
}

function result(
  input: ChargeOutcomeInput,
  chargeState: ChargeState,
  fields: {
    nextAttemptAt?: DateTime;
    firstFailedAt?: DateTime | null;
    collection?: Collection;
    events: ChargeEvent[];
  },
): ChargeOutcomeResult {
  assertChargeTransition(input.chargeState, chargeState);
  const to = fields.collection
    ? subscriptionAfter(input.subscriptionState, fields.collection, input.policy)
    : null;
  const events = [...fields.events];
  let subscriptionChange: ChargeOutcomeResult["subscriptionChange"] = null;
  if (to !== null) {
    assertTransition(input.subscriptionState, to);
    subscriptionChange = { from: input.subscriptionState, to };
    events.push({ type: "subscription.state_changed", from: input.subscriptionState, to });
  }
  return {
    chargeState,
    nextAttemptAt: fields.nextAttemptAt ?? null,
    firstFailedAt: fields.firstFailedAt === undefined ? input.firstFailedAt : fields.firstFailedAt,
    subscriptionChange,
    events,
  };
}

/** Outcomes of a sent attempt only make sense for a charge that had one in flight (or under review). */
function assertAttemptWasSent(input: ChargeOutcomeInput): void {
  const { chargeState, outcome, attemptsMade } = input;
  if (attemptsMade < 1) {
    throw new RangeError(
      `attemptsMade must count the reported "${outcome.kind}" attempt, got ${attemptsMade}`,
    );
  }
  const expected: readonly ChargeState[] =
    outcome.kind === "unknown" ? ["processing"] : ["processing", "needs_review"];
  if (!expected.includes(chargeState)) {
    throw new RangeError(
      `an attempt outcome "${outcome.kind}" applies to a charge in ${expected.join(" or ")}, not ${chargeState}`,
    );
  }
}

/** A stored decline is overturned only while its charge waits for the attempt that would follow it. */
const OVERTURNABLE: readonly ChargeState[] = ["retrying", "uncollectible"];

function assertDeclineOverturnable(input: ChargeOutcomeInput): void {
  if (!OVERTURNABLE.includes(input.chargeState)) {
    throw new RangeError(
      `a stored decline found paid applies to a charge in ${OVERTURNABLE.join(" or ")}, not ${input.chargeState}`,
    );
  }
}

function paid(input: ChargeOutcomeInput, transactionId: string | null): ChargeOutcomeResult {
  const attempt = input.attemptsMade;
  const events: ChargeEvent[] = [{ type: "charge.paid", attempt, transactionId }];
  // The subscription stays canceled (see subscriptionAfter), but someone must hear of the money.
  if (input.subscriptionState === "canceled") {
    events.push({ type: "charge.paid_after_cancellation", attempt, transactionId });
  }
  return result(input, "paid", { collection: "paid", events });
}

/**
 * Applies one attempt outcome. Throws (RangeError, IllegalTransitionError) instead of guessing when
 * the outcome does not fit the charge's state, e.g. a second outcome for a paid charge.
 */
export function chargeOutcome(input: ChargeOutcomeInput): ChargeOutcomeResult {
  const { outcome, attemptsMade, now } = input;
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
  }
  if (outcome.kind === "found_paid") assertDeclineOverturnable(input);
  else if (outcome.kind !== "token_unusable") assertAttemptWasSent(input);

  switch (outcome.kind) {
    case "approved":
      return paid(input, outcome.transactionId ?? null);

    case "found_paid":
      return paid(input, outcome.transactionId);

    case "unknown":
      return result(input, "needs_review", {
        events: [{ type: "charge.needs_review", reason: "outcome_unknown", code: null, description: null }],
      });

    case "rejected":
      return result(input, "needs_review", {
        events: [
          {
            type: "charge.needs_review",
            reason: "gateway_rejected",
            code: outcome.code,
            description: outcome.description ?? null,
          },
        ],
      });

    // Retrying a dead token cannot succeed; the customer must save a new card.
    case "token_unusable":
      return result(input, "uncollectible", {
        collection: "failed",
        events: [
          { type: "payment_method.unusable", description: outcome.description ?? null },
          { type: "charge.uncollectible", reason: "token_unusable" },
        ],
      });

    case "declined": {
      const description = outcome.description === null ? "" : String(outcome.description);
      const decline = explainDecline(outcome.description);
      const firstFailedAt = input.firstFailedAt ?? now.toUTC();
      const declined: ChargeEvent = {
        type: "charge.declined",
        attempt: attemptsMade,
        decline: decline.kind,
        reason: decline.reason,
        description,
      };
      // Card networks forbid retrying what the issuer will never approve.
      if (decline.kind === "hard_decline") {
        return result(input, "uncollectible", {
          firstFailedAt,
          collection: "failed",
          events: [declined, { type: "charge.uncollectible", reason: "hard_decline" }],
        });
      }
      const next = nextRetry(input.policy, { firstFailedAt, attemptsMade, lastAttemptAt: now });
      if (next.kind === "exhausted") {
        return result(input, "uncollectible", {
          firstFailedAt,
          collection: "failed",
          events: [declined, { type: "charge.uncollectible", reason: "retries_exhausted" }],
        });
      }
      return result(input, "retrying", {
        firstFailedAt,
        nextAttemptAt: next.at,
        collection: "retrying",
        events: [declined, { type: "charge.retry_scheduled", attempt: attemptsMade + 1, at: next.at }],
      });
    }
  }
}
