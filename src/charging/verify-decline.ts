import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import { countReconcile } from "../metrics/index.js";
import { DeclineUnverifiedError } from "./errors.js";
import type { UnverifiedDecline } from "./load-charges.js";
import { payByDeclinedAttempt } from "./pay-by-declined-attempt.js";
import { lookUpStatus } from "./reconcile.js";
import type { ChargeResult } from "./result.js";
import { decideDeclineCheck } from "./verify-decline-decision.js";

/**
 * Rule: before any new attempt of a charge (and before a payment link, an unusable-card settlement
 * or a cancellation takes its place), its last attempt, when it was stored as declined without the
 * gateway's transaction id, is settled by CheckStatus on its orderId (decideDeclineCheck). Such a
 * row is what a bare `{result: 0}` left before the gateway client stopped trusting one (the
 * gateway had taken the money), or what any other path recording a decline without one would
 * leave. Only those charges pay the extra call.
 *
 * - paid: the charge is paid by that attempt (pay-by-declined-attempt.ts); nothing is sent;
 * - confirmed: a real decline; its transaction id is stored, so it is not asked about again;
 * - not charged: the new attempt goes;
 * - hold: nothing is sent (DeclineUnverifiedError); the charge stays due and the job's retry asks
 *   again first.
 *
 * Returns the charge's result when it was dealt with here, null when the new attempt may go. What
 * was found is recorded as `charge.decline_checked` and counted in billing_reconcile_total.
 */
const ACTOR = "reconciler";

export interface DeclinedCharge {
  readonly id: string;
  readonly subscriptionId: string;
  readonly decline: UnverifiedDecline;
}

export async function verifyDecline(
  ctx: EngineContext,
  charge: DeclinedCharge,
): Promise<ChargeResult | null> {
  const { decline } = charge;
  const { orderId, attemptNumber } = decline;
  const check = decideDeclineCheck({ lookup: await lookUpStatus(ctx, orderId), quiet: decline.quiet });
  ctx.logger.info(
    { chargeId: charge.id, orderId, decision: check.kind },
    "checking a decline stored without a transaction id",
  );
  switch (check.kind) {
    case "paid": {
      const result = await payByDeclinedAttempt(ctx, {
        chargeId: charge.id,
        attemptId: decline.id,
        attemptNumber,
        orderId,
        transactionId: check.transactionId,
        authCode: check.authCode,
      });
      if (result.kind === "paid") {
        countReconcile("approved");
        ctx.logger.warn(
          { chargeId: charge.id, orderId },
          "a decline stored without a transaction id had been paid",
        );
      }
      return result;
    }
    case "confirmed":
      await ctx.db.$client.begin(async (tx) => {
        const kept = await tx`
          update charge_attempts set gateway_transaction_id = ${check.transactionId}
          where id = ${decline.id}::uuid and status = 'declined' and gateway_transaction_id is null
          returning id`;
        if (kept.length > 0)
          await recordChecked(ctx, tx, charge, { found: "declined", transaction_id: check.transactionId });
      });
      countReconcile("declined");
      return null;
    case "not_charged":
      await recordChecked(ctx, ctx.db.$client, charge, { found: "not_found" });
      countReconcile("not_found");
      return null;
    case "hold":
      countReconcile("still_unknown");
      throw new DeclineUnverifiedError(charge.id, attemptNumber, orderId, check.why);
  }
}

async function recordChecked(
  ctx: Pick<EngineContext, "clock">,
  sql: SqlRunner,
  charge: DeclinedCharge,
  data: Record<string, unknown>,
): Promise<void> {
  await recordEvents(sql, [
    {
      type: "charge.decline_checked",
      actor: ACTOR,
      occurredAt: ctx.clock.now(),
      subscriptionId: charge.subscriptionId,
      chargeId: charge.id,
      data: { attempt: charge.decline.attemptNumber, order_id: charge.decline.orderId, ...data },
    },
  ]);
}
