import { and, count, eq, gte } from "drizzle-orm";
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
import { toInstant } from "../clock/index.js";
import type { Tx } from "../db/index.js";
import { chargeAttempts, charges, paymentMethods, plans, subscriptions } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { loggedEvent } from "./charge-events.js";
import { subscriptionPatch } from "./subscription-patch.js";

/**
 * Rule: a charge outcome changes the charge, its subscription and the event log in ONE transaction
 * (the caller's, which also settles the attempt or the card), exactly as the chargeOutcome reducer
 * decides, from rows locked for the whole transaction. Rows are locked subscription first, then
 * charge: the scheduler and cancellation take the subscription first too, so they queue up behind
 * each other instead of deadlocking.
 *
 * Dunning counts attempts per card (card-network retry limits are per card): only the declines
 * made since the subscription's current card was saved count, and first_failed_at restarts with
 * a new card.
 *
 * A canceled subscription's charge (its attempt was in flight when it was canceled immediately)
 * is never sent again: when the reducer would have it retry, it is canceled here instead
 * (retrying → canceled, as cancelOrphanedCharge would do later) and no retry is announced. When
 * its attempt was approved, the money was taken for a subscription that has ended: the reducer's
 * `charge.paid_after_cancellation` is logged with the amount and canceled_at for an operator (no
 * automatic refund), and the effects ask for a warning in the log.
 */
export interface LockedCharge {
  readonly charge: {
    readonly id: string;
    readonly status: ChargeState;
    readonly firstFailedAt: DateTime | null;
    readonly amountMinor: number;
    readonly currency: string;
  };
  readonly subscription: {
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
  };
  /** Declined attempts of this charge made with the subscription's current card. */
  readonly declinesOnCard: number;
}

export async function lockCharge(tx: Tx, chargeId: string): Promise<LockedCharge | null> {
  const [owner] = await tx
    .select({ subscriptionId: charges.subscriptionId })
    .from(charges)
    .where(eq(charges.id, chargeId));
  if (!owner) return null;
  const [subscription] = await tx
    .select({
      id: subscriptions.id,
      customerId: subscriptions.customerId,
      status: subscriptions.status,
      canceledAt: subscriptions.canceledAt,
      paymentMethodId: subscriptions.paymentMethodId,
      billingAnchor: subscriptions.billingAnchor,
      timezone: subscriptions.timezone,
      intervalUnit: plans.intervalUnit,
      intervalCount: plans.intervalCount,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      nextBillingAt: subscriptions.nextBillingAt,
      cardSavedAt: paymentMethods.createdAt,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
    .where(eq(subscriptions.id, owner.subscriptionId))
    .for("update", { of: subscriptions });
  const [charge] = await tx
    .select({
      id: charges.id,
      status: charges.status,
      firstFailedAt: charges.firstFailedAt,
      amountMinor: charges.amountMinor,
      currency: charges.currency,
    })
    .from(charges)
    .where(eq(charges.id, chargeId))
    .for("update");
  if (!subscription || !charge) return null;

  const declined = [eq(chargeAttempts.chargeId, chargeId), eq(chargeAttempts.status, "declined")];
  if (subscription.cardSavedAt) declined.push(gte(chargeAttempts.createdAt, subscription.cardSavedAt));
  const [declines] = await tx
    .select({ n: count() })
    .from(chargeAttempts)
    .where(and(...declined));

  return {
    charge: {
      id: charge.id,
      status: charge.status,
      firstFailedAt: charge.firstFailedAt && toInstant(charge.firstFailedAt),
      amountMinor: charge.amountMinor,
      currency: charge.currency,
    },
    subscription: {
      id: subscription.id,
      customerId: subscription.customerId,
      status: subscription.status,
      canceledAt: subscription.canceledAt && toInstant(subscription.canceledAt),
      paymentMethodId: subscription.paymentMethodId,
      billingAnchor: subscription.billingAnchor && toInstant(subscription.billingAnchor),
      timezone: subscription.timezone,
      interval: { unit: subscription.intervalUnit, count: subscription.intervalCount },
      currentPeriodEnd: subscription.currentPeriodEnd && toInstant(subscription.currentPeriodEnd),
      nextBillingAt: subscription.nextBillingAt && toInstant(subscription.nextBillingAt),
    },
    declinesOnCard: declines?.n ?? 0,
  };
}

export interface OutcomeToApply {
  readonly outcome: AttemptOutcome;
  /** 1 when an attempt was sent and is being reported, 0 when nothing was sent. */
  readonly sentAttempts: 0 | 1;
  readonly policy: DunningPolicy;
  readonly now: DateTime;
  readonly actor: string;
  /** Columns that only the caller knows (paid transaction, decline text). */
  readonly chargeColumns?: Partial<typeof charges.$inferInsert>;
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

export interface AppliedOutcome {
  readonly result: ChargeOutcomeResult;
  readonly effects: OutcomeEffects;
}

export async function applyOutcome(
  tx: Tx,
  locked: LockedCharge,
  input: OutcomeToApply,
): Promise<AppliedOutcome> {
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
  const canceledHere = result !== decided;

  await tx
    .update(charges)
    .set({
      ...input.chargeColumns,
      status: result.chargeState,
      nextAttemptAt: result.nextAttemptAt?.toJSDate() ?? null,
      firstFailedAt: result.firstFailedAt?.toJSDate() ?? null,
    })
    .where(eq(charges.id, charge.id));

  const change = result.subscriptionChange;
  if (change) {
    const patch = subscriptionPatch(
      change.to,
      subscription,
      now,
      `charge ${charge.id} ${result.chargeState}`,
    );
    await tx
      .update(subscriptions)
      .set({
        status: patch.status,
        ...(patch.nextBillingAt === undefined
          ? {}
          : { nextBillingAt: patch.nextBillingAt?.toJSDate() ?? null }),
        ...(patch.canceledAt ? { canceledAt: patch.canceledAt.toJSDate() } : {}),
        ...(patch.endedReason ? { endedReason: patch.endedReason } : {}),
      })
      .where(eq(subscriptions.id, subscription.id));
  }

  let paidAfterCancellation: PaidAfterCancellation | null = null;
  for (const event of result.events) {
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
    await recordEvent(tx, {
      type: logged.type,
      actor: input.actor,
      occurredAt: now,
      subscriptionId: subscription.id,
      customerId: subscription.customerId,
      chargeId: charge.id,
      data: { ...logged.data, ...context, ...input.eventData?.[event.type] },
    });
  }
  if (canceledHere) {
    await recordEvent(tx, {
      type: "charge.canceled",
      actor: input.actor,
      occurredAt: now,
      subscriptionId: subscription.id,
      customerId: subscription.customerId,
      chargeId: charge.id,
      data: { reason: "subscription canceled", previous_status: charge.status },
    });
  }

  return {
    result,
    effects: {
      invoiceChargeId: result.chargeState === "uncollectible" ? charge.id : null,
      deactivatePaymentMethodId: change?.to === "canceled" ? subscription.paymentMethodId : null,
      paidAfterCancellation,
    },
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
