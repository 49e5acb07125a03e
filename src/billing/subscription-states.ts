import type { DateTime } from "luxon";
import {
  allowsTransition,
  IllegalTransitionError,
  isTerminal,
  type TransitionTable,
} from "./state-machine.js";

export const SUBSCRIPTION_STATES = [
  "pending_enrollment",
  "trialing",
  "active",
  "past_due",
  "unpaid",
  "paused",
  "canceled",
] as const;

export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/**
 * Every allowed move of a subscription. A move that is not listed is a bug in the caller.
 *
 * Decisions worth knowing:
 * - A definitive collection failure (hard decline, unusable card token, dunning exhausted) goes
 *   straight to the dunning policy's terminal state (`unpaid` or `canceled`), also from `trialing`
 *   and `active`: retrying a card the issuer will never approve only burns the card-network retry
 *   allowance, so there is no point in passing through `past_due`.
 * - Only a subscription in good standing can be paused. Pausing `past_due` or `unpaid` would shelve
 *   an open debt with no rule for what its retries do meanwhile; the merchant cancels or waits for
 *   dunning to finish instead.
 * - A trial is not pausable: it charges nothing, and resuming would need a rule for the unused trial
 *   days that the plan does not carry.
 * - Resuming makes the subscription `active` at once and starts a new period whose charge then
 *   follows the renewal path (`active → past_due` on decline), so `paused → past_due` is not needed.
 */
export const SUBSCRIPTION_TRANSITIONS = {
  pending_enrollment: [
    "trialing", // the checkout saved the card and the plan starts with a trial
    "active", // the checkout took the first payment and saved the card
    "canceled", // the checkout was abandoned or failed, or the merchant called it off
  ],
  trialing: [
    "active", // the first charge at the end of the trial was paid
    "past_due", // the first charge was declined and the dunning policy schedules retries
    "unpaid", // the first charge failed definitively and the policy's terminal action is unpaid
    "canceled", // canceled during the trial, or definitive failure with terminal action cancel
  ],
  active: [
    "active", // renewal: a new period began; recorded so the history shows every renewal
    "past_due", // a renewal charge was declined and retries are scheduled
    "unpaid", // a renewal charge failed definitively (hard decline, unusable token)
    "paused", // the merchant paused billing; no periods are charged until it resumes
    "canceled", // canceled by customer or merchant, or definitive failure with terminal action cancel
  ],
  past_due: [
    "active", // a retry was paid
    "unpaid", // dunning ended without payment and the terminal action is unpaid
    "canceled", // dunning ended with terminal action cancel, or canceled while dunning
  ],
  unpaid: [
    "active", // the debt was paid, typically with a new card
    "canceled", // the merchant gave up on the debt
  ],
  paused: [
    "active", // resumed; a new period starts and is charged
    "canceled", // canceled while paused
  ],
  canceled: [], // terminal: a returning customer gets a new subscription
} as const satisfies TransitionTable<SubscriptionState>;

export function canTransition(from: SubscriptionState, to: SubscriptionState): boolean {
  return allowsTransition<SubscriptionState>(SUBSCRIPTION_TRANSITIONS, from, to);
}

export function assertTransition(from: SubscriptionState, to: SubscriptionState): void {
  if (!canTransition(from, to)) throw new IllegalTransitionError("subscription", from, to);
}

export function isTerminalSubscriptionState(state: SubscriptionState): boolean {
  return isTerminal<SubscriptionState>(SUBSCRIPTION_TRANSITIONS, state);
}

export function isSubscriptionState(value: string): value is SubscriptionState {
  return (SUBSCRIPTION_STATES as readonly string[]).includes(value);
}

/**
 * States that have a period running to a next billing (the schema's subscriptions_billing_only_when_live):
 * a cancellation at period end waits in them, and a customer can act on them.
 */
export const LIVE_SUBSCRIPTION_STATES = [
  "trialing",
  "active",
  "past_due",
] as const satisfies readonly SubscriptionState[];

export function isLive(state: string): boolean {
  return (LIVE_SUBSCRIPTION_STATES as readonly string[]).includes(state);
}

/**
 * States in which the scheduler creates the charge of a period that begins: `trialing` (the charge
 * at the end of the trial) and `active` (renewals).
 *
 * `past_due` deliberately does not renew. Card-network retry limits count declined attempts per
 * card AND amount, so a second charge of the same amount on the declining card would spend the
 * retry allowance that the dunning policy was validated against (a daily plan would blow through
 * Visa's 20 in 30 days). It also keeps one open debt per subscription, so a paid retry can safely
 * make the subscription `active` again. When it recovers, the scheduler bills the periods that began
 * meanwhile.
 */
export function isBilling(state: SubscriptionState): boolean {
  return state === "trialing" || state === "active";
}

export type CancellationMode = "immediately" | "at_period_end";

/**
 * When a cancellation takes effect. At period end the customer keeps what was paid for; the
 * subscription stays in its state until then and no charge is created for the next period.
 */
export function cancellationEffectiveAt(
  mode: CancellationMode,
  now: DateTime,
  currentPeriodEnd: DateTime,
): DateTime {
  if (mode === "immediately" || currentPeriodEnd <= now) return now.toUTC();
  return currentPeriodEnd.toUTC();
}
