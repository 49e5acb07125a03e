import { and, eq, isNull } from "drizzle-orm";
import type { DateTime } from "luxon";
import { assertTransition, tokenExpiry, trialEnd } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { sqlOf, type Tx } from "../db/index.js";
import { enrollments, paymentMethods, plans, subscriptions } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../events/index.js";
import type { CallbackSource } from "./callback-params.js";
import { collectByCard } from "./collect-by-card.js";
import { ENROLLMENT_EVENTS, GATEWAY_ACTOR } from "./events.js";
import type { EnrollmentRow, SubscriptionRow } from "./records.js";
import type { VerificationDecision, VoidOutcome } from "./verification.js";

export interface CompletionInput {
  /** Both rows locked FOR UPDATE by the caller, and the enrollment still open. */
  subscription: SubscriptionRow;
  enrollment: EnrollmentRow;
  decision: Extract<VerificationDecision, { kind: "complete" }>;
  now: DateTime;
  source: CallbackSource;
}

/** The verification payment that the gateway failed to return, to be refunded once after commit. */
export interface VoidRefundClaim {
  enrollmentId: string;
  subscriptionId: string;
  customerId: string;
  transactionId: string;
  voidDescription: string;
}

export interface Completion {
  paymentMethodId: string;
  voidRefund: VoidRefundClaim | null;
}

/**
 * Applies a verified successful checkout, inside the caller's transaction: the card token is
 * stored sealed, the enrollment completed with the isVoid outcome, and the subscription started
 * (first card) or switched to the new card (re-enrollment), each with its event. A canceled
 * subscription keeps the card on file but is not revived.
 *
 * expires_at assumes the six-month token lifetime: the gateway's record does not carry the card's
 * expiry, so a card that expires sooner is caught by the charge that fails on it.
 */
export async function completeEnrollment(
  tx: Tx,
  ctx: Pick<EngineContext, "vault" | "clock" | "config">,
  input: CompletionInput,
): Promise<Completion> {
  const { vault } = ctx;
  const { subscription, enrollment, decision, now, source } = input;
  const sealed = vault.encrypt(decision.cardToken);
  const [method] = await tx
    .insert(paymentMethods)
    .values({
      customerId: subscription.customerId,
      subscriptionId: subscription.id,
      enrollmentId: enrollment.id,
      kind: enrollment.kind,
      tokenCiphertext: sealed.ciphertext,
      tokenNonce: sealed.nonce,
      tokenTag: sealed.tag,
      tokenKeyId: sealed.keyId,
      tokenFingerprint: vault.fingerprint(decision.cardToken),
      // A recurring token charges the enrollment amount and nothing else.
      ...(enrollment.kind === "recurring"
        ? { amountMinor: enrollment.amountMinor, currency: enrollment.currency }
        : {}),
      issuedAt: now.toJSDate(),
      expiresAt: tokenExpiry(now, null).toJSDate(),
    })
    .returning({ id: paymentMethods.id });
  if (!method) throw new Error("payment method was not stored");

  const attention = attentionFor(decision.transactionId, decision.voidOutcome);
  await tx
    .update(enrollments)
    .set({
      status: "completed",
      completedAt: now.toJSDate(),
      gatewayTransactionId: decision.transactionId,
      ...voidColumns(decision.voidOutcome),
      ...(attention === null ? {} : { operatorAttention: attention }),
    })
    .where(eq(enrollments.id, enrollment.id));
  const common = {
    actor: GATEWAY_ACTOR,
    occurredAt: now,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
  };
  await recordEvent(tx, {
    ...common,
    type: ENROLLMENT_EVENTS.enrollmentCompleted,
    data: {
      enrollment_id: enrollment.id,
      payment_method_id: method.id,
      gateway_transaction_id: decision.transactionId,
      void_refunded: decision.voidOutcome.refunded,
      source,
    },
  });

  let voidRefund: VoidRefundClaim | null = null;
  if (decision.voidOutcome.refunded !== "yes") {
    const automaticRefund = decision.voidOutcome.refunded === "no";
    await recordEvent(tx, {
      ...common,
      type: ENROLLMENT_EVENTS.needsAttention,
      data: {
        enrollment_id: enrollment.id,
        reason: automaticRefund ? "void_not_refunded" : "void_outcome_unknown",
        gateway_transaction_id: decision.transactionId,
        message: attention,
        // Committed before the refund call: the durable record that the one attempt was claimed.
        automatic_refund: automaticRefund ? "requested" : "none",
      },
    });
    if (decision.voidOutcome.refunded === "no") {
      voidRefund = {
        enrollmentId: enrollment.id,
        subscriptionId: subscription.id,
        customerId: subscription.customerId,
        transactionId: decision.transactionId,
        voidDescription: decision.voidOutcome.description,
      };
    }
  }

  if (subscription.status === "pending_enrollment") {
    await startSubscription(tx, subscription, method.id, common);
  } else if (subscription.status !== "canceled") {
    await replaceCard(tx, subscription, enrollment.id, method.id, common);
    // A saved card ends collection by link: what waits for a link is charged to the card now.
    if (subscription.collectionMethod === "send_payment_link") {
      const moved = await collectByCard(ctx, sqlOf(tx), subscription.id);
      await recordEvent(tx, {
        ...common,
        type: EVENT_TYPES.subscriptionCollectionMethodChanged,
        data: { from: "send_payment_link", to: "charge_automatically", charges_to_card: moved },
      });
    }
  }
  return { paymentMethodId: method.id, voidRefund };
}

export type EventCommon = { actor: string; occurredAt: DateTime; subscriptionId: string; customerId: string };

/**
 * The first card is saved, or a subscription that pays by link starts (no card: paymentMethodId
 * null): with a trial the subscription is trialing until the trial ends, which is also its billing
 * anchor and first billing time; without one it is active from now, anchored now, with the first
 * period's charge due now (the scheduler creates it).
 */
export async function startSubscription(
  tx: Tx,
  subscription: SubscriptionRow,
  paymentMethodId: string | null,
  common: EventCommon,
): Promise<void> {
  const [plan] = await tx.select().from(plans).where(eq(plans.id, subscription.planId));
  if (!plan) throw new Error(`subscription ${subscription.id} lost its plan`);
  const now = common.occurredAt;
  const trial = plan.trialDays > 0;
  const status = trial ? "trialing" : "active";
  assertTransition(subscription.status, status);
  const anchor = trial ? trialEnd(now, plan.trialDays, subscription.timezone) : now.toUTC();
  await tx
    .update(subscriptions)
    .set({
      status,
      billingAnchor: anchor.toJSDate(),
      nextBillingAt: anchor.toJSDate(),
      trialEnd: trial ? anchor.toJSDate() : null,
      paymentMethodId,
    })
    .where(eq(subscriptions.id, subscription.id));
  await recordEvent(tx, {
    ...common,
    type: ENROLLMENT_EVENTS.subscriptionActivated,
    data: {
      plan_id: plan.id,
      status,
      payment_method_id: paymentMethodId,
      collection_method: paymentMethodId === null ? "send_payment_link" : subscription.collectionMethod,
      billing_anchor: anchor.toISO(),
      next_billing_at: anchor.toISO(),
      trial_end: trial ? anchor.toISO() : null,
    },
  });
}

/**
 * A started subscription moves to the new card; the old one is retired. The subscription's state
 * and schedule are not touched here: a past_due or unpaid debt is the charging engine's, which
 * retries its open charges on the new card when it sees `payment_method.replaced`.
 */
async function replaceCard(
  tx: Tx,
  subscription: SubscriptionRow,
  enrollmentId: string,
  paymentMethodId: string,
  common: EventCommon,
): Promise<void> {
  const previous = subscription.paymentMethodId;
  if (previous) {
    await tx
      .update(paymentMethods)
      .set({
        deactivatedAt: common.occurredAt.toJSDate(),
        deactivationReason: `replaced by the card of enrollment ${enrollmentId}`,
      })
      .where(and(eq(paymentMethods.id, previous), isNull(paymentMethods.deactivatedAt)));
  }
  await tx.update(subscriptions).set({ paymentMethodId }).where(eq(subscriptions.id, subscription.id));
  await recordEvent(tx, {
    ...common,
    type: ENROLLMENT_EVENTS.paymentMethodReplaced,
    data: {
      enrollment_id: enrollmentId,
      payment_method_id: paymentMethodId,
      previous_payment_method_id: previous,
      subscription_status: subscription.status,
      resume_collection: subscription.status === "past_due" || subscription.status === "unpaid",
    },
  });
}

function voidColumns(outcome: VoidOutcome) {
  switch (outcome.refunded) {
    case "yes":
      return {
        voidRefunded: "yes" as const,
        voidRefundTransactionId: outcome.refundTransactionId,
        voidRefundDescription: outcome.description,
      };
    case "no":
      return { voidRefunded: "no" as const, voidRefundDescription: outcome.description };
    case "unknown":
      return {};
  }
}

function attentionFor(transactionId: string, outcome: VoidOutcome): string | null {
  switch (outcome.refunded) {
    case "yes":
      return null;
    case "no":
      return `the gateway did not return verification payment ${transactionId} (${outcome.description}); automatic refund requested`;
    case "unknown":
      return `the gateway did not say whether verification payment ${transactionId} was returned; check it`;
  }
}
