import type { EngineContext } from "../context/index.js";
import { enqueueInvoice, enqueueTokenDeactivation } from "../queue/index.js";
import type { OutcomeEffects } from "./decide-outcome.js";

/**
 * Hands the follow-up work of a committed outcome to its queues: the invoice of an uncollectible
 * charge, the deactivation of a canceled subscription's card token. Job ids derive from the charge
 * and the payment method, so a repeat is harmless. Money taken after a cancellation is warned about
 * in the log (its `charge.paid_after_cancellation` event is already committed); nothing is refunded
 * automatically.
 *
 * A failed enqueue (Redis down) is logged, not thrown: the outcome is committed and throwing would
 * only make BullMQ rerun a finished charge. The scheduler tick finds uncollectible charges without
 * an invoice again from Postgres.
 */
export async function runOutcomeEffects(
  ctx: Pick<EngineContext, "queues" | "logger">,
  effects: OutcomeEffects,
): Promise<void> {
  const { invoiceChargeId, deactivatePaymentMethodId, paidAfterCancellation } = effects;
  if (paidAfterCancellation) {
    ctx.logger.warn(
      {
        chargeId: paidAfterCancellation.charge_id,
        subscriptionId: paidAfterCancellation.subscription_id,
        transactionId: paidAfterCancellation.transaction_id,
        amountMinor: paidAfterCancellation.amount_minor,
        currency: paidAfterCancellation.currency,
        canceledAt: paidAfterCancellation.canceled_at,
      },
      "charge paid after its subscription was canceled; an operator decides on a refund (billing charges refund)",
    );
  }
  if (invoiceChargeId) {
    await enqueueInvoice(ctx.queues, { chargeId: invoiceChargeId }).catch((err: unknown) =>
      ctx.logger.warn({ err, chargeId: invoiceChargeId }, "could not enqueue the invoice; the tick will"),
    );
  }
  if (deactivatePaymentMethodId) {
    await enqueueTokenDeactivation(ctx.queues, { paymentMethodId: deactivatePaymentMethodId }).catch(
      (err: unknown) =>
        ctx.logger.error(
          { err, paymentMethodId: deactivatePaymentMethodId },
          "could not enqueue the token deactivation",
        ),
    );
  }
}
