import { and, eq, inArray, isNull } from "drizzle-orm";
import type { EngineContext } from "../app/index.js";
import { assertChargeTransition } from "../billing/index.js";
import { chargeAttempts, charges, paymentMethods } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { lockCharge } from "./lock-charge.js";
import { settlingFrom } from "./settling-from.js";

/**
 * Rule: an attempt known to have moved no money is closed as failed_permanently, and its charge
 * goes back to waiting (retrying, due now) in the same transaction, so a charge never sits in
 * processing without an open attempt and the next attempt is found again from Postgres whatever
 * happens next. It does not count as a dunning attempt (only declines do). An attempt held for
 * review (needs_review, its charge too) is released the same way when an operator's status check
 * finds the gateway never registered it (reconcile-held-charge.ts).
 *
 * Used when CheckStatus does not know the orderId once the attempt is quiet, when the gateway
 * refused the request before processing it (429, no connection), and when it answered -7 (the card
 * token is unusable, which is then recorded on the payment method: the charge is settled by the
 * unusable-card path on its next run, without calling the gateway again).
 *
 * When the subscription was canceled meanwhile (immediately, with this attempt in flight), the
 * charge is canceled instead of waiting (retrying → canceled, in the same transaction): the card of
 * a canceled subscription is never sent a new attempt. Rows are locked subscription first, then
 * charge, as everywhere else (apply-outcome.ts).
 */
export interface Release {
  readonly chargeId: string;
  readonly attemptId: string;
  readonly attemptNumber: number;
  readonly code: string;
  readonly description: string;
  readonly actor: string;
  /** Set when the reason is the card token: the payment method is marked unusable with it. */
  readonly unusablePaymentMethodId?: string;
  /**
   * The attempt is held for review (attempt and charge in needs_review) and an operator's status
   * check found it never reached the gateway (reconcile-held-charge.ts). Default false.
   */
  readonly held?: boolean;
}

/** Returns false when the attempt was no longer open (another worker settled it first). */
export async function releaseAttempt(
  ctx: Pick<EngineContext, "db" | "clock">,
  release: Release,
): Promise<boolean> {
  const now = ctx.clock.now();
  const from = settlingFrom(release.held ?? false);
  return ctx.db.transaction(async (tx) => {
    const locked = await lockCharge(tx, release.chargeId);
    if (locked?.charge.status !== from.charge) return false;
    const { charge, subscription } = locked;
    const [closed] = await tx
      .update(chargeAttempts)
      .set({
        status: "failed_permanently",
        declineCode: release.code,
        declineDescription: release.description,
        settledAt: now.toJSDate(),
      })
      .where(and(eq(chargeAttempts.id, release.attemptId), inArray(chargeAttempts.status, from.attempt)))
      .returning({ id: chargeAttempts.id });
    if (!closed) return false;
    assertChargeTransition(charge.status, "retrying");
    const canceled = subscription.status === "canceled";
    if (canceled) assertChargeTransition("retrying", "canceled");
    await tx
      .update(charges)
      .set(
        canceled
          ? { status: "canceled", nextAttemptAt: null }
          : { status: "retrying", nextAttemptAt: now.toJSDate() },
      )
      .where(eq(charges.id, release.chargeId));
    if (release.unusablePaymentMethodId) {
      await tx
        .update(paymentMethods)
        .set({ unusableAt: now.toJSDate(), unusableReason: `${release.code}: ${release.description}` })
        .where(
          and(eq(paymentMethods.id, release.unusablePaymentMethodId), isNull(paymentMethods.unusableAt)),
        );
    }
    await recordEvent(tx, {
      type: "charge.attempt_released",
      actor: release.actor,
      occurredAt: now,
      subscriptionId: subscription.id,
      chargeId: release.chargeId,
      data: { attempt: release.attemptNumber, code: release.code, description: release.description },
    });
    if (canceled) {
      await recordEvent(tx, {
        type: "charge.canceled",
        actor: release.actor,
        occurredAt: now,
        subscriptionId: subscription.id,
        customerId: subscription.customerId,
        chargeId: release.chargeId,
        data: { reason: "subscription canceled", previous_status: charge.status },
      });
    }
    return true;
  });
}
