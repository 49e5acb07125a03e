import { and, eq, inArray } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { refunds } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";

export type RefundRow = typeof refunds.$inferSelect;
export type RefundStatus = RefundRow["status"];

/** The statuses of a refund whose gateway answer is not known yet: the reconciler's work. */
export const OPEN_REFUND_STATUSES = ["requested", "unknown"] as const satisfies readonly RefundStatus[];

export interface RefundOutcome {
  status: Exclude<RefundStatus, "requested">;
  gatewayRefundTransactionId?: string | null;
  description?: string | null;
}

/** One event type per outcome; the reconciler records the same facts as the refund call. */
const EVENT_OF: Record<RefundOutcome["status"], string> = {
  completed: "charge.refunded",
  under_processing: "charge.refunded",
  failed: "charge.refund_failed",
  unknown: "charge.refund_unknown",
};

export interface SettleInput {
  refund: RefundRow;
  actor: string;
  subscriptionId: string;
  outcome: RefundOutcome;
  /** Statuses the row may still be in for this outcome to apply; anything else means it moved on. */
  from: readonly RefundStatus[];
  /** Extra members of the event's data. */
  data?: Record<string, unknown>;
}

export interface Settled {
  row: RefundRow;
  /** False when the row had already left `from` (another process settled it): nothing was written. */
  changed: boolean;
}

/**
 * Records a refund's outcome and its event in one transaction. The update is conditional on the
 * row still being in one of `from`, so two processes settling the same refund (the refund call and
 * the reconciler, or two reconcilers) cannot both write: the second waits on the first's row lock,
 * finds the status changed, and leaves it. An unknown outcome is not settled (settled_at stays null).
 */
export async function settleRefund(
  ctx: Pick<EngineContext, "db" | "clock">,
  input: SettleInput,
): Promise<Settled> {
  const { refund, outcome } = input;
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(refunds)
      .set({
        status: outcome.status,
        gatewayRefundTransactionId: outcome.gatewayRefundTransactionId ?? null,
        description: outcome.description ?? null,
        settledAt: outcome.status === "unknown" ? null : now.toJSDate(),
      })
      .where(and(eq(refunds.id, refund.id), inArray(refunds.status, [...input.from])))
      .returning();
    if (!row) {
      const [current] = await tx.select().from(refunds).where(eq(refunds.id, refund.id));
      if (!current) throw new Error(`refund ${refund.id} vanished`);
      return { row: current, changed: false };
    }
    const returned = outcome.status === "completed" || outcome.status === "under_processing";
    await recordEvent(tx, {
      // A duplicate's money going back is the event a merchant watches for (a webhook).
      type:
        returned && refund.reason === "duplicate" ? "charge.duplicate_refunded" : EVENT_OF[outcome.status],
      actor: input.actor,
      occurredAt: now,
      subscriptionId: input.subscriptionId,
      chargeId: refund.chargeId,
      data: {
        refund_id: refund.id,
        refund_status: outcome.status,
        reason: refund.reason,
        amount_minor: refund.amountMinor,
        currency: refund.currency,
        refunded_transaction_id: refund.refundedTransactionId,
        gateway_refund_transaction_id: outcome.gatewayRefundTransactionId ?? null,
        description: outcome.description ?? null,
        ...input.data,
      },
    });
    return { row, changed: true };
  });
}
