import { lookUpStatus } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { saveLinkCard } from "../enrollment/index.js";
import { recordEvents } from "../events/index.js";
import { applyLatePayment } from "../late-payments/index.js";

/**
 * Rule: what a checkout of a payment link did is only ever what CheckStatus says about its orderId
 * (the gateway text: anyone can request the success URL), asked with no transaction open:
 * - SUCCESS: the payment is applied as a found payment (late-payments/apply-late-payment.ts, via
 *   payment_link): the charge paid, or, when another checkout already paid it, a duplicate that
 *   the late-payments sweep refunds; under row locks and conditional on the attempt, so the
 *   browser's return, the webhook and a replay apply it once;
 * - FAILURE: the open attempt is declined (the customer may open the link again for a new one);
 * - PENDING or not found: nothing changes; the customer has not paid it (yet).
 * A paid checkout that was to save the card saves the token CheckStatus reports, and the
 * subscription then pays by card (enrollment/save-link-card.ts); without one it stays on links.
 */
export type CheckoutOutcome = "paid" | "duplicate" | "held" | "declined" | "pending" | "unavailable";

export interface CheckoutAttempt {
  readonly id: string;
  readonly chargeId: string;
  readonly orderId: string;
  readonly attemptNumber: number;
  /** The customer asked the checkout to save the card for automatic payments. */
  readonly saveCard: boolean;
}

type Ctx = Pick<EngineContext, "db" | "clock" | "gateway" | "logger" | "vault" | "config">;

export async function settleCheckout(ctx: Ctx, attempt: CheckoutAttempt): Promise<CheckoutOutcome> {
  const lookup = await lookUpStatus(ctx, attempt.orderId);
  if (lookup.kind !== "lookup") return "unavailable";
  const { result } = lookup;
  if (!result.found || result.payment.state === "PENDING") return "pending";
  const { payment } = result;
  if (payment.state === "SUCCESS") {
    const resolution = await applyLatePayment(ctx, {
      chargeId: attempt.chargeId,
      attemptId: attempt.id,
      attemptNumber: attempt.attemptNumber,
      orderId: attempt.orderId,
      transactionId: payment.transactionId,
      authCode: payment.authCode || null,
      via: "payment_link",
    });
    if ((resolution === "paid" || resolution === "gone") && attempt.saveCard && payment.cardToken) {
      await saveLinkCard(ctx, {
        chargeId: attempt.chargeId,
        attemptId: attempt.id,
        cardToken: payment.cardToken,
      });
    }
    // gone: an earlier call applied it; wait: a card attempt is open, asked again by the sweep.
    if (resolution === "gone") return "paid";
    return resolution === "wait" ? "pending" : resolution;
  }
  await declineCheckout(ctx, attempt, payment.description ?? "declined");
  return "declined";
}

async function declineCheckout(ctx: Ctx, attempt: CheckoutAttempt, description: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.$client.begin(async (tx) => {
    const declined = await tx<{ subscription_id: string }[]>`
      update charge_attempts a set status = 'declined', decline_description = ${description},
        settled_at = ${now.toUTC().toISO()}::timestamptz
      from charges c
      where a.id = ${attempt.id}::uuid and a.status = 'in_flight' and c.id = a.charge_id
      returning c.subscription_id`;
    if (declined.length === 0) return;
    await tx`
      update charges set last_decline_description = ${description}
      where id = ${attempt.chargeId}::uuid`;
    await recordEvents(tx, [
      {
        type: "charge.payment_link_declined",
        actor: "payment-links",
        occurredAt: now,
        subscriptionId: declined[0]!.subscription_id,
        chargeId: attempt.chargeId,
        data: { attempt: attempt.attemptNumber, order_id: attempt.orderId, description },
      },
    ]);
  });
}
