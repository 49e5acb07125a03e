import {
  allowsTransition,
  IllegalTransitionError,
  isTerminal,
  type TransitionTable,
} from "./state-machine.js";

/**
 * A charge is what a subscription owes for one period; it is collected through one or more payment
 * attempts against the gateway: GetnewPayment with the saved card token, or hosted checkouts the
 * customer opens from a payment link while the charge is `awaiting_payment`.
 */
export const CHARGE_STATES = [
  "scheduled",
  "processing",
  "retrying",
  "awaiting_payment",
  "paid",
  "needs_review",
  "uncollectible",
  "canceled",
] as const;

export type ChargeState = (typeof CHARGE_STATES)[number];

export const CHARGE_TRANSITIONS = {
  scheduled: [
    "processing", // the first attempt is sent
    "awaiting_payment", // the subscription pays by link: the link went to the customer
    "paid", // a checkout of its old payment link was paid after the subscription went back to its card
    "uncollectible", // the card token was already unusable, so nothing was sent
    "canceled", // the subscription was canceled or the period voided before the charge was due
  ],
  processing: [
    "paid", // the gateway approved the attempt
    "retrying", // a retryable decline and the dunning policy has retries left
    "uncollectible", // hard decline, unusable token, or the last retry was declined
    "needs_review", // the outcome stayed unknown: trying again could charge twice
    // Not canceled: an attempt is in flight and money may move; wait for its outcome first.
  ],
  retrying: [
    "processing", // the next retry is sent
    "awaiting_payment", // the subscription switched to payment links: the link replaces the retries
    "paid", // an attempt closed as "not found" was applied by the gateway late (late-payment.ts)
    "uncollectible", // the card token became unusable before the retry was due
    "canceled", // the subscription was canceled or the merchant forgave the debt
  ],
  awaiting_payment: [
    "paid", // CheckStatus confirmed a checkout of the link was paid
    "uncollectible", // the reminders ran out unpaid (the dunning policy's terminal action)
    "canceled", // the subscription was canceled or the merchant voided the charge
    "scheduled", // the subscription switched to its card before the first reminder
    "retrying", // the subscription switched to its card after the first reminder
    // Not processing: checkouts are attempts of their own while the charge waits for the customer.
  ],
  needs_review: [
    "paid", // the review found the gateway took the money
    "retrying", // the review found no money was taken and retries remain
    "uncollectible", // no money was taken and collection stops
    "canceled", // no money was taken and the merchant voids the charge
  ],
  paid: [], // terminal: refunds are separate records and never reopen a charge
  uncollectible: [
    "processing", // the customer pays with a new card, or the merchant collects manually
    "paid", // an attempt closed as "not found" was applied by the gateway late (late-payment.ts)
    "canceled", // the merchant writes the debt off
  ],
  canceled: [], // terminal: nothing is owed
} as const satisfies TransitionTable<ChargeState>;

export function canChargeTransition(from: ChargeState, to: ChargeState): boolean {
  return allowsTransition<ChargeState>(CHARGE_TRANSITIONS, from, to);
}

export function assertChargeTransition(from: ChargeState, to: ChargeState): void {
  if (!canChargeTransition(from, to)) throw new IllegalTransitionError("charge", from, to);
}

export function isTerminalChargeState(state: ChargeState): boolean {
  return isTerminal<ChargeState>(CHARGE_TRANSITIONS, state);
}

/**
 * One call to the gateway. `unknown` exists because a timeout or a dropped connection says nothing
 * about whether the card was charged; such an attempt must be resolved (status check or a human)
 * before anyone tries the card again.
 */
export const ATTEMPT_STATES = [
  "in_flight",
  "approved",
  "declined",
  "unknown",
  "needs_review",
  "failed_permanently",
] as const;

export type AttemptState = (typeof ATTEMPT_STATES)[number];

export const ATTEMPT_TRANSITIONS = {
  in_flight: [
    "approved", // result 1 with a transaction id
    "declined", // result 0: the issuer or gateway declined the card
    "unknown", // timeout, connection error or unreadable reply: money may or may not have moved
    "failed_permanently", // the gateway refused the request itself (negative result), nothing charged
  ],
  unknown: [
    "approved", // a status check found the payment
    "declined", // a status check found the payment failed
    "failed_permanently", // a status check shows the gateway never registered the payment
    "needs_review", // status checks were exhausted without an answer
  ],
  needs_review: [
    "approved", // a human confirmed the payment went through
    "declined", // a human confirmed it failed
    "failed_permanently", // a human confirmed the gateway never registered it
  ],
  approved: [], // terminal
  declined: [], // terminal: a retry is a new attempt
  failed_permanently: [
    "approved", // closed as "not found", then CheckStatus found it: the gateway applied it late
  ],
} as const satisfies TransitionTable<AttemptState>;

export function canAttemptTransition(from: AttemptState, to: AttemptState): boolean {
  return allowsTransition<AttemptState>(ATTEMPT_TRANSITIONS, from, to);
}

export function assertAttemptTransition(from: AttemptState, to: AttemptState): void {
  if (!canAttemptTransition(from, to)) throw new IllegalTransitionError("payment attempt", from, to);
}

export function isTerminalAttemptState(state: AttemptState): boolean {
  return isTerminal<AttemptState>(ATTEMPT_TRANSITIONS, state);
}
