import { assertChargeTransition, type ChargeState } from "./charge-states.js";
import { assertTransition, type SubscriptionState } from "./subscription-states.js";

/**
 * A gateway may apply a payment after we stopped waiting for it: CheckStatus said "not found" once
 * the attempt was quiet, the attempt was closed as "no money moved", and a retry may even have been
 * paid since. Such attempts stay watched (lateWatchDelaySeconds) and, when CheckStatus finds the
 * payment after all, what happens depends on where the charge went meanwhile (latePaymentDecision).
 * Pure: the late-payments sweep only persists it.
 */

export interface LateWatchPolicy {
  /** How long after an attempt was sent it is still asked about; 0 turns the watch off. */
  readonly windowSeconds: number;
  /** Delay before the first re-check; each later one waits twice as long, up to maxDelaySeconds. */
  readonly firstDelaySeconds: number;
  readonly maxDelaySeconds: number;
}

/**
 * Seconds until the next CheckStatus of a watched attempt after `checksDone` checks, or null when
 * the watch is over: the next check would fall after the window (`ageSeconds` is the attempt's
 * age now). Doubling keeps the cost low (about 30 checks over a week with a minute's start) while
 * the early, likeliest minutes are asked about often.
 */
export function lateWatchDelaySeconds(
  policy: LateWatchPolicy,
  checksDone: number,
  ageSeconds: number,
): number | null {
  if (!Number.isSafeInteger(checksDone) || checksDone < 0) {
    throw new RangeError(`checksDone must be a non-negative whole number, got ${checksDone}`);
  }
  if (policy.windowSeconds <= 0) return null;
  const delay = Math.min(policy.firstDelaySeconds * 2 ** Math.min(checksDone, 40), policy.maxDelaySeconds);
  return ageSeconds + delay > policy.windowSeconds ? null : delay;
}

/**
 * What a payment found late does, by the charge's state now:
 *
 * | charge        | decision                                                                |
 * |---------------|-------------------------------------------------------------------------|
 * | scheduled,    | pay: the charge is paid by the late payment; no retry will go (a        |
 * | retrying,     | scheduled charge has such an attempt when its payment link was paid     |
 * | awaiting_     | after the subscription went back to its card; awaiting_payment is the   |
 * |  payment      | charge whose payment link was paid, see payment-links/)                 |
 * | uncollectible | pay: as above; an invoice already issued for it is reported to void     |
 * | paid          | refund: another attempt paid the period, the late money is a duplicate  |
 * | canceled      | hold: money for a charge nobody owes; an operator decides (as a payment |
 * |               | after cancellation is)                                                  |
 * | processing,   | wait: another attempt is open and may be paid too; decide once it is    |
 * | needs_review  | settled                                                                 |
 *
 * A paid charge moves its subscription back to active from past_due or unpaid, as any payment does.
 */
export type LatePaymentDecision =
  | {
      readonly kind: "pay";
      readonly subscriptionChange: { readonly from: SubscriptionState; readonly to: "active" } | null;
    }
  | { readonly kind: "refund_duplicate" }
  | { readonly kind: "hold" }
  | { readonly kind: "wait" };

export function latePaymentDecision(
  chargeState: ChargeState,
  subscriptionState: SubscriptionState,
): LatePaymentDecision {
  switch (chargeState) {
    case "scheduled":
    case "retrying":
    case "awaiting_payment":
    case "uncollectible": {
      assertChargeTransition(chargeState, "paid");
      const recovers =
        subscriptionState === "trialing" ||
        subscriptionState === "past_due" ||
        subscriptionState === "unpaid";
      if (recovers) assertTransition(subscriptionState, "active");
      return {
        kind: "pay",
        subscriptionChange: recovers ? { from: subscriptionState, to: "active" } : null,
      };
    }
    case "paid":
      return { kind: "refund_duplicate" };
    case "canceled":
      return { kind: "hold" };
    case "processing":
    case "needs_review":
      return { kind: "wait" };
  }
}
