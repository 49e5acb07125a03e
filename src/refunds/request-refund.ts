import { and, eq, ne } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { SqlState, violates } from "../db/index.js";
import type { chargeAttempts, charges } from "../db/schema/index.js";
import { refunds } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import {
  GatewayError,
  GatewayNotFoundError,
  GatewayRejectedError,
  type V1RefundResult,
} from "../gateway/index.js";
import { RefundError } from "./errors.js";
import { type RefundOutcome, type RefundRow, settleRefund } from "./settle.js";

/**
 * Returns one gateway payment (a charge's approved attempt) through the gateway's v1 refund. The
 * refunds row is committed as `requested` BEFORE the call, so a crash mid-call leaves evidence to
 * reconcile, and its partial unique index (one non-failed refund per payment) stops a second
 * refund, even one racing this one. Then the answer is recorded with an event:
 * - completed / under_processing: the gateway took it (under_processing: after settlement);
 * - failed: the gateway refused or was not reached; a later refund may try again;
 * - unknown: the call may have reached the gateway (timeout, dropped connection, any error that is
 *   not a classified gateway failure); the row blocks another refund.
 *
 * A row left `requested` (crash mid-call, or the answer could not be written) or `unknown` is
 * settled later from the gateway's CheckStatus by reconcileRefund (reconcile-refund.ts), which the
 * `refunds` status check runs once the quiet period is over.
 */
export type RefundContext = Pick<EngineContext, "db" | "gateway" | "clock">;

export interface RefundRequest {
  readonly charge: typeof charges.$inferSelect;
  readonly attempt: typeof chargeAttempts.$inferSelect;
  /** The payment returned: the attempt's gateway transaction. */
  readonly transactionId: string;
  readonly reason: RefundRow["reason"];
  /** As in events: "api:<key id>", "cli", "late-payments", … */
  readonly actor: string;
}

async function liveRefundConflict(db: RefundContext["db"], request: RefundRequest): Promise<RefundError> {
  const [live] = await db
    .select({ id: refunds.id, status: refunds.status })
    .from(refunds)
    .where(and(eq(refunds.refundedTransactionId, request.transactionId), ne(refunds.status, "failed")));
  return new RefundError(
    "refund_exists",
    `charge ${request.charge.id} already has a refund of payment ${request.transactionId} (${live?.status ?? "in progress"}); the gateway refunds a payment once`,
    { refund_id: live?.id ?? null, refund_status: live?.status ?? null },
  );
}

export async function requestRefund(ctx: RefundContext, request: RefundRequest): Promise<RefundRow> {
  const { db, clock } = ctx;
  const { charge, attempt, transactionId, actor } = request;
  let requested: RefundRow;
  try {
    requested = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(refunds)
        .values({
          chargeId: charge.id,
          chargeAttemptId: attempt.id,
          refundedTransactionId: transactionId,
          amountMinor: charge.amountMinor,
          currency: charge.currency,
          channel: "v1",
          reason: request.reason,
          requestedBy: actor,
        })
        .returning();
      if (!row) throw new Error("refund was not recorded");
      await recordEvent(tx, {
        type: "charge.refund_requested",
        actor,
        occurredAt: clock.now(),
        subscriptionId: charge.subscriptionId,
        chargeId: charge.id,
        data: {
          refund_id: row.id,
          reason: request.reason,
          refunded_transaction_id: transactionId,
          amount_minor: charge.amountMinor,
          currency: charge.currency,
        },
      });
      return row;
    });
  } catch (error) {
    if (violates(error, SqlState.uniqueViolation, "refunds_one_live_per_transaction")) {
      throw await liveRefundConflict(db, request);
    }
    throw error;
  }

  let answer: V1RefundResult;
  try {
    answer = await ctx.gateway.v1.refund({ transactionId, orderId: attempt.orderId });
  } catch (error) {
    if (!(error instanceof GatewayError)) {
      // Not a classified gateway failure (a bug, a reply we could not even classify, …): the request
      // may well have reached the gateway, so the outcome is unknown, never "still requested". The
      // reconciler settles it from CheckStatus. If even this write fails, the row stays requested,
      // which the reconciler also settles; the original error is the one worth reporting.
      await settle(ctx, requested, actor, charge.subscriptionId, {
        status: "unknown",
        description: `the refund call ended with an unexpected error: ${messageOf(error)}`,
      }).catch(() => undefined);
      throw error;
    }
    const settled = await settle(ctx, requested, actor, charge.subscriptionId, {
      status: error.outcomeUnknown ? "unknown" : "failed",
      description: error.description,
    });
    if (error.outcomeUnknown) return settled;
    const refused = error instanceof GatewayRejectedError || error instanceof GatewayNotFoundError;
    throw new RefundError(
      refused ? "refund_refused" : "gateway_error",
      `the refund of charge ${charge.id} failed: ${error.description}`,
      { refund_id: requested.id, refund_status: settled.status },
    );
  }
  return settle(ctx, requested, actor, charge.subscriptionId, {
    status: answer.refundStatus,
    gatewayRefundTransactionId: answer.refundTransactionId,
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Records the answer to our own call. Only a row still `requested` is written: should the
 * reconciler have settled it meanwhile (possible only once the quiet period is over), its answer
 * stands and is returned.
 */
async function settle(
  ctx: RefundContext,
  refund: RefundRow,
  actor: string,
  subscriptionId: string,
  outcome: RefundOutcome,
): Promise<RefundRow> {
  const { row } = await settleRefund(ctx, { refund, actor, subscriptionId, outcome, from: ["requested"] });
  return row;
}
