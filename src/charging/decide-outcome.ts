import type { DateTime } from "luxon";
import {
  type AttemptOutcome,
  assertChargeTransition,
  type ChargeEvent,
  type ChargeOutcomeResult,
  type ChargeState,
  chargeOutcome,
  type DunningPolicy,
  type SubscriptionState,
} from "../billing/index.js";
import type { EventInput } from "../events/index.js";
import { loggedEvent } from "./charge-events.js";
import { type SubscriptionPatch, subscriptionPatch } from "./subscription-patch.js";

/**
 * Rule: what a charge outcome changes (the charge, its subscription, the event log) is decided here,
 * purely, exactly as the chargeOutcome reducer says, from rows the caller holds locked; the caller
 * writes the decision in the same transaction that settles the attempt or the card
 * (write-outcomes.ts). A batch applies decisions one after another in memory, so two charges of one
 * subscription settled together see each other's subscription change, as they would in turn.
 *
 * Dunning counts attempts per card (card-network retry limits are per card): only the declines
 * made since the subscription's current card was saved count, and first_failed_at restarts with
 * a new card.
 *
 * A canceled subscription's charge (its attempt was in flight when it was canceled immediately)
 * is never sent again: when the reducer would have it retry, it is canceled instead
 * (retrying → canceled, as cancelOrphanedCharge would do later) and no retry is announced. When
 * its attempt was approved, the money was taken for a subscription that has ended: the reducer's
 * `charge.paid_after_cancellation` is logged with the amount and canceled_at for an operator (no
 * automatic refund), and the effects ask for a warning in the log.
 */
export interface LockedSubscription {
  readonly id: string;
  readonly customerId: string;
  readonly status: SubscriptionState;
  readonly canceledAt: DateTime | null;
  readonly paymentMethodId: string | null;
  readonly billingAnchor: DateTime | null;
  readonly timezone: string;
  readonly interval: { readonly unit: "day" | "week" | "month" | "year"; readonly count: number };
  readonly currentPeriodEnd: DateTime | null;
  readonly nextBillingAt: DateTime | null;
}

export interface LockedCharge {
  readonly charge: {
    readonly id: string;
    readonly status: ChargeState;
    readonly firstFailedAt: DateTime | null;
    readonly amountMinor: number;
    readonly currency: string;
  };
  readonly subscription: LockedSubscription;
  /** Declined attempts of this charge made with the subscription's current card. */
  readonly declinesOnCard: number;
}

/** Charge columns only the caller knows (the paid transaction, the decline text); absent = unchanged. */
export interface ChargeColumns {
  readonly paidAt?: DateTime;
  readonly paidTransactionId?: string;
  readonly lastDeclineCode?: string;
  readonly lastDeclineDescription?: string;
}

export interface OutcomeToApply {
  readonly outcome: AttemptOutcome;
  /** 1 when an attempt was sent and is being reported, 0 when nothing was sent. */
  readonly sentAttempts: 0 | 1;
  readonly policy: DunningPolicy;
  readonly now: DateTime;
  readonly actor: string;
  readonly chargeColumns?: ChargeColumns;
  /** Extra data merged into the logged event of a given reducer event type. */
  readonly eventData?: Partial<Record<ChargeEvent["type"], Record<string, unknown>>>;
}

/** What must happen outside the database once the transaction has committed. */
export interface OutcomeEffects {
  /** The charge became uncollectible: its invoice is to be created. */
  readonly invoiceChargeId: string | null;
  /** The subscription was canceled: its card token is to be deactivated at the gateway. */
  readonly deactivatePaymentMethodId: string | null;
  /** Money was taken after the subscription was canceled: an operator is warned in the log. */
  readonly paidAfterCancellation: PaidAfterCancellation | null;
}

/** The data of a `charge.paid_after_cancellation` event (snake_case, as every event's data). */
export interface PaidAfterCancellation {
  readonly charge_id: string;
  readonly subscription_id: string;
  readonly transaction_id: string | null;
  readonly amount_minor: number;
  readonly currency: string;
  readonly canceled_at: string | null;
}

export interface DecidedOutcome {
  readonly chargeId: string;
  readonly result: ChargeOutcomeResult;
  readonly charge: ChargeColumns & {
    readonly status: ChargeState;
    readonly nextAttemptAt: DateTime | null;
    readonly firstFailedAt: DateTime | null;
  };
  /** The subscription's change, or null when it keeps its state. */
  readonly subscription: (SubscriptionPatch & { readonly id: string }) | null;
  readonly events: readonly EventInput[];
  readonly effects: OutcomeEffects;
}

export function decideOutcome(locked: LockedCharge, input: OutcomeToApply): DecidedOutcome {
  const { charge, subscription, declinesOnCard } = locked;
  const { now } = input;
  const decided = chargeOutcome({
    chargeState: charge.status,
    subscriptionState: subscription.status,
    outcome: input.outcome,
    policy: input.policy,
    attemptsMade: declinesOnCard + input.sentAttempts,
    firstFailedAt: declinesOnCard > 0 ? charge.firstFailedAt : null,
    now,
  });
  const result = subscription.status === "canceled" ? withoutRetry(decided) : decided;
  const change = result.subscriptionChange;
  const patch = change
    ? subscriptionPatch(change.to, subscription, now, `charge ${charge.id} ${result.chargeState}`)
    : null;

  const subjects = {
    actor: input.actor,
    occurredAt: now,
    subscriptionId: subscription.id,
    chargeId: charge.id,
  };
  let paidAfterCancellation: PaidAfterCancellation | null = null;
  const events: EventInput[] = result.events.map((event) => {
    const logged = loggedEvent(event);
    let context: PaidAfterCancellation | null = null;
    if (event.type === "charge.paid_after_cancellation") {
      context = {
        charge_id: charge.id,
        subscription_id: subscription.id,
        transaction_id: event.transactionId,
        amount_minor: charge.amountMinor,
        currency: charge.currency,
        canceled_at: subscription.canceledAt?.toUTC().toISO() ?? null,
      };
      paidAfterCancellation = context;
    }
    return {
      ...subjects,
      type: logged.type,
      customerId: subscription.customerId,
      data: { ...logged.data, ...context, ...input.eventData?.[event.type] },
    };
  });
  if (result !== decided) {
    events.push({
      ...subjects,
      type: "charge.canceled",
      customerId: subscription.customerId,
      data: { reason: "subscription canceled", previous_status: charge.status },
    });
  }

  return {
    chargeId: charge.id,
    result,
    charge: {
      ...input.chargeColumns,
      status: result.chargeState,
      nextAttemptAt: result.nextAttemptAt,
      firstFailedAt: result.firstFailedAt,
    },
    subscription: patch && { id: subscription.id, ...patch },
    events,
    effects: {
      invoiceChargeId: result.chargeState === "uncollectible" ? charge.id : null,
      deactivatePaymentMethodId: change?.to === "canceled" ? subscription.paymentMethodId : null,
      paidAfterCancellation,
    },
  };
}

/** The subscription as a later charge of the same batch sees it once this decision is applied. */
export function afterDecision(subscription: LockedSubscription, decided: DecidedOutcome): LockedSubscription {
  const patch = decided.subscription;
  if (!patch) return subscription;
  return {
    ...subscription,
    status: patch.status,
    ...(patch.nextBillingAt === undefined ? {} : { nextBillingAt: patch.nextBillingAt }),
    ...(patch.canceledAt ? { canceledAt: patch.canceledAt } : {}),
  };
}

/**
 * A canceled subscription's charge that the reducer would retry is canceled instead: the retry
 * would charge the card of a subscription that has ended. The decline is still recorded; the
 * retry is not announced.
 */
function withoutRetry(decided: ChargeOutcomeResult): ChargeOutcomeResult {
  if (decided.chargeState !== "retrying") return decided;
  assertChargeTransition("retrying", "canceled");
  return {
    ...decided,
    chargeState: "canceled",
    nextAttemptAt: null,
    events: decided.events.filter((event) => event.type !== "charge.retry_scheduled"),
  };
}
