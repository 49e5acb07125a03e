import { latePaymentDecision } from "../billing/index.js";
import { lockCharges, subscriptionPatch } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { EVENT_TYPES, type EventInput, recordEvents } from "../events/index.js";

/**
 * Rule: a payment CheckStatus finds for an attempt we had closed as "no money moved" is applied in
 * one transaction, with the charge and its subscription locked (subscription first, as
 * everywhere), as latePaymentDecision says:
 * - pay: the attempt becomes approved with its transaction, the charge paid, a subscription in
 *   debt active again; a pending invoice for the charge is not sent any more (failed, with why),
 *   and one already issued is named in the event for an operator to void (the gateway has no void);
 * - refund_duplicate: the attempt becomes approved and marked duplicate_at; refund-duplicates.ts
 *   returns its money (it finds every duplicate without a live refund, so a crash here loses none);
 * - hold: a canceled charge was paid; the attempt is approved and an operator is told
 *   (`charge.paid_after_cancellation`, as for a payment landing after a cancellation);
 * - wait: another attempt of the charge is open; nothing changes, the watch asks again later.
 * Every outcome but wait records `charge.payment_found_late` with the resolution.
 *
 * A checkout opened from a payment link (via `payment_link`) is applied the same way, from its open
 * attempt (in_flight) or from one superseded by a newer checkout and watched: a payment of an old
 * checkout after another one paid the period is a duplicate and refunded like any other. It records
 * `charge.payment_link_paid` instead, and a paid charge's link stops reminding.
 */
export type LateResolution = "paid" | "duplicate" | "held" | "wait" | "gone";

export interface LatePayment {
  readonly chargeId: string;
  readonly attemptId: string;
  readonly attemptNumber: number;
  readonly orderId: string;
  readonly transactionId: string;
  readonly authCode: string | null;
  /** What found it: the late-payment watch (default) or a payment link's checkout. */
  readonly via?: "late_check" | "payment_link";
}

const ACTOR = "late-payments";

export async function applyLatePayment(
  ctx: Pick<EngineContext, "db" | "clock">,
  found: LatePayment,
): Promise<LateResolution> {
  const now = ctx.clock.now();
  const at = now.toUTC().toISO();
  return ctx.db.$client.begin(async (tx) => {
    const locked = (await lockCharges(tx, [found.chargeId])).get(found.chargeId);
    if (!locked) return "gone";
    const link = found.via === "payment_link";
    const open = await tx`
      select id from charge_attempts
      where id = ${found.attemptId}::uuid
        and ((status = 'failed_permanently' and late_check_at is not null)
          or (${link} and channel = 'checkout' and status = 'in_flight'))
      for update`;
    if (open.length === 0) return "gone";
    const { charge, subscription } = locked;
    const decision = latePaymentDecision(charge.status, subscription.status);
    if (decision.kind === "wait") return "wait";

    const duplicate = decision.kind === "refund_duplicate";
    await tx`
      update charge_attempts set status = 'approved', gateway_transaction_id = ${found.transactionId},
        auth_code = ${found.authCode}, late_check_at = null, settled_at = coalesce(settled_at, ${at}::timestamptz),
        duplicate_at = ${duplicate ? at : null}::timestamptz
      where id = ${found.attemptId}::uuid`;
    const subjects = {
      actor: ACTOR,
      occurredAt: now,
      subscriptionId: subscription.id,
      chargeId: charge.id,
      customerId: subscription.customerId,
    };
    const payment = {
      attempt: found.attemptNumber,
      order_id: found.orderId,
      transaction_id: found.transactionId,
      amount_minor: charge.amountMinor,
      currency: charge.currency,
    };
    const resolution: LateResolution = decision.kind === "pay" ? "paid" : duplicate ? "duplicate" : "held";
    const events: EventInput[] = [
      {
        ...subjects,
        type: link ? "charge.payment_link_paid" : "charge.payment_found_late",
        data: { ...payment, resolution, charge_status: charge.status },
      },
    ];

    if (decision.kind === "pay") {
      await tx`
        update charges set status = 'paid', paid_at = ${at}::timestamptz,
          paid_transaction_id = ${found.transactionId}, next_attempt_at = null, dispatched_at = null
        where id = ${charge.id}::uuid`;
      await tx`update payment_links set next_reminder_at = null where charge_id = ${charge.id}::uuid`;
      const invoices = await tx<{ id: string; status: string; gateway_invoice_id: number | null }[]>`
        update invoices set status = case when status = 'pending' then 'failed'::invoice_status else status end,
          last_error = case when status = 'pending'
            then 'not sent: the charge was paid by a payment the gateway applied late' else last_error end
        where charge_id = ${charge.id}::uuid
        returning id, status::text as status, gateway_invoice_id`;
      const issued = invoices.find((invoice) => invoice.gateway_invoice_id !== null);
      events.push({
        ...subjects,
        type: EVENT_TYPES.chargeSucceeded,
        data: {
          attempt: found.attemptNumber,
          transaction_id: found.transactionId,
          ...(link ? { collection_method: "send_payment_link" } : { late: true }),
          ...(issued ? { invoice_to_void: issued.id, gateway_invoice_id: issued.gateway_invoice_id } : {}),
        },
      });
      if (decision.subscriptionChange) {
        const patch = subscriptionPatch("active", subscription, now, `charge ${charge.id} paid late`);
        await tx`
          update subscriptions set status = 'active',
            next_billing_at = ${patch.nextBillingAt?.toUTC().toISO() ?? null}::timestamptz
          where id = ${subscription.id}::uuid`;
        events.push({
          ...subjects,
          type: "subscription.state_changed",
          data: { from: decision.subscriptionChange.from, to: "active" },
        });
      }
    }
    if (decision.kind === "hold") {
      events.push({
        ...subjects,
        type: "charge.paid_after_cancellation",
        data: { ...payment, late: true, canceled_at: subscription.canceledAt?.toUTC().toISO() ?? null },
      });
    }
    await recordEvents(tx, events);
    return resolution;
  });
}
