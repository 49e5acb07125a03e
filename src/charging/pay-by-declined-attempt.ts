import type { ChargeState } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { recordEvents } from "../events/index.js";
import { type DecidedOutcome, decideOutcome } from "./decide-outcome.js";
import { lockCharges } from "./lock-charges.js";
import { runOutcomeEffects } from "./outcome-effects.js";
import { type ChargeResult, skipped } from "./result.js";
import { writeOutcomes } from "./write-outcomes.js";

/**
 * Rule: a decline stored without the gateway's transaction id that CheckStatus finds SUCCESS paid
 * its charge (verify-decline.ts), so the charge is paid by that attempt and nothing is sent. One
 * transaction, the subscription and the charge locked (lock-charges.ts): the attempt becomes
 * approved with the found transaction only while it is still that unverified decline and its charge
 * still waits after it (retrying, or uncollectible collected again); the charge and its subscription
 * then move as the chargeOutcome reducer says for `found_paid` (decide-outcome.ts), written like any
 * outcome (write-outcomes.ts), with `charge.decline_checked` recording what was found.
 *
 * An invoice already issued at the gateway for an uncollectible charge is named in that event for
 * an operator to void (the gateway has no void); a pending one is closed by the invoice worker,
 * which invoices only uncollectible charges.
 */
export interface FoundPayment {
  readonly chargeId: string;
  readonly attemptId: string;
  readonly attemptNumber: number;
  readonly orderId: string;
  readonly transactionId: string;
  readonly authCode: string | null;
}

const ACTOR = "reconciler";
const WAITING: readonly ChargeState[] = ["retrying", "uncollectible"];

type PayingCtx = Pick<EngineContext, "db" | "clock" | "dunning" | "queues" | "logger">;

interface Paid {
  readonly decision: DecidedOutcome;
  readonly invoiceToVoid: string | null;
}

export async function payByDeclinedAttempt(ctx: PayingCtx, found: FoundPayment): Promise<ChargeResult> {
  const now = ctx.clock.now();
  const decided = await ctx.db.$client.begin(async (tx): Promise<Paid | null> => {
    const locked = (await lockCharges(tx, [found.chargeId])).get(found.chargeId);
    if (!locked || !WAITING.includes(locked.charge.status)) return null;
    const approved = await tx`
      update charge_attempts set status = 'approved', gateway_transaction_id = ${found.transactionId},
        auth_code = ${found.authCode}
      where id = ${found.attemptId}::uuid and status = 'declined' and gateway_transaction_id is null
      returning id`;
    if (approved.length === 0) return null;
    const decision = decideOutcome(locked, {
      outcome: { kind: "found_paid", transactionId: found.transactionId },
      sentAttempts: 0,
      policy: ctx.dunning,
      now,
      actor: ACTOR,
      chargeColumns: { paidAt: now, paidTransactionId: found.transactionId },
    });
    const [issued] = await tx<{ id: string; gateway_invoice_id: number }[]>`
      select id, gateway_invoice_id from invoices
      where charge_id = ${found.chargeId}::uuid and gateway_invoice_id is not null`;
    await recordEvents(tx, [
      {
        type: "charge.decline_checked",
        actor: ACTOR,
        occurredAt: now,
        subscriptionId: locked.subscription.id,
        chargeId: found.chargeId,
        data: {
          attempt: found.attemptNumber,
          order_id: found.orderId,
          found: "paid",
          transaction_id: found.transactionId,
          ...(issued ? { invoice_to_void: issued.id, gateway_invoice_id: issued.gateway_invoice_id } : {}),
        },
      },
    ]);
    await writeOutcomes(tx, [decision]);
    // Its hand-off to the queue is done with, as a claim would have marked it (claim-batch.ts).
    await tx`update charges set dispatched_at = null where id = ${found.chargeId}::uuid`;
    return { decision, invoiceToVoid: issued?.id ?? null };
  });
  if (!decided) return skipped(found.chargeId, "already_recorded");
  if (decided.invoiceToVoid) {
    ctx.logger.warn(
      { chargeId: found.chargeId, invoiceId: decided.invoiceToVoid },
      "a charge invoiced as uncollectible was found paid; its gateway invoice is to be voided",
    );
  }
  await runOutcomeEffects(ctx, decided.decision.effects);
  return {
    kind: "paid",
    chargeId: found.chargeId,
    attemptNumber: found.attemptNumber,
    transactionId: found.transactionId,
  };
}
