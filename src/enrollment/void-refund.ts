import { eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { enrollments } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { GatewayError } from "../gateway/index.js";
import type { VoidRefundClaim } from "./complete-enrollment.js";
import { ENROLLMENT_EVENTS } from "./events.js";

export type VoidRefundContext = Pick<EngineContext, "db" | "clock" | "gateway" | "logger">;

/** What the one automatic refund of a verification payment came to. */
export type VoidRefundAttempt =
  | { status: "succeeded"; refundState: "SUCCESS" | "Processing"; refundTransactionId: string }
  /** The gateway refused: nothing was returned. */
  | { status: "failed"; error: string }
  /** No usable answer: the refund may or may not have happened. */
  | { status: "unknown"; error: string };

/**
 * Refunds, once, a verification payment whose isVoid return failed (refunded=no). Only the
 * callback whose transaction completed the enrollment holds the claim, so there is never a second
 * automatic attempt, whatever races; a crash before the call leaves the `automatic_refund:
 * requested` event without a result for an operator to follow up. The result is recorded on the
 * enrollment (operator_attention says what is left to do; void_refund_transaction_id names the
 * refund) with an event. Never throws: the customer's callback has already been applied.
 */
export async function attemptVoidRefund(
  ctx: VoidRefundContext,
  claim: VoidRefundClaim,
): Promise<VoidRefundAttempt> {
  const attempt = await refundOnce(ctx, claim);
  const attention = attentionAfter(claim, attempt);
  try {
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(enrollments)
        .set({
          operatorAttention: attention,
          ...(attempt.status === "succeeded" ? { voidRefundTransactionId: attempt.refundTransactionId } : {}),
        })
        .where(eq(enrollments.id, claim.enrollmentId));
      await recordEvent(tx, {
        type: ENROLLMENT_EVENTS.voidRefundAttempted,
        actor: "system",
        occurredAt: ctx.clock.now(),
        subscriptionId: claim.subscriptionId,
        customerId: claim.customerId,
        data: {
          enrollment_id: claim.enrollmentId,
          gateway_transaction_id: claim.transactionId,
          result: attempt.status,
          ...(attempt.status === "succeeded"
            ? { refund_state: attempt.refundState, refund_transaction_id: attempt.refundTransactionId }
            : { error: attempt.error }),
        },
      });
    });
  } catch (error) {
    ctx.logger.error(
      { err: error, enrollmentId: claim.enrollmentId, attempt },
      "could not record the automatic refund of a verification payment",
    );
  }
  return attempt;
}

async function refundOnce(ctx: VoidRefundContext, claim: VoidRefundClaim): Promise<VoidRefundAttempt> {
  try {
    const result = await ctx.gateway.legacy.refund({
      orderId: claim.enrollmentId,
      transactionId: claim.transactionId,
    });
    ctx.logger.info(
      { enrollmentId: claim.enrollmentId, refundState: result.refundState },
      "verification payment refunded after the isVoid return failed",
    );
    return {
      status: "succeeded",
      refundState: result.refundState,
      refundTransactionId: result.refundTransactionId,
    };
  } catch (error) {
    ctx.logger.error(
      { err: error, enrollmentId: claim.enrollmentId },
      "automatic refund of a verification payment failed",
    );
    const message = error instanceof GatewayError ? error.description : String(error);
    const unknown = !(error instanceof GatewayError) || error.outcomeUnknown;
    return unknown ? { status: "unknown", error: message } : { status: "failed", error: message };
  }
}

function attentionAfter(claim: VoidRefundClaim, attempt: VoidRefundAttempt): string {
  const lost = `the gateway did not return verification payment ${claim.transactionId} (${claim.voidDescription})`;
  switch (attempt.status) {
    case "succeeded":
      return `${lost}; automatic refund ${attempt.refundState} as ${attempt.refundTransactionId}: confirm the customer got the money back`;
    case "failed":
      return `${lost}; automatic refund refused (${attempt.error}): refund it by hand`;
    case "unknown":
      return `${lost}; automatic refund outcome unknown (${attempt.error}): check the gateway before refunding by hand`;
  }
}
