import { and, eq, inArray, sql } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { chargeAttempts } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";

/**
 * Rule: an attempt whose outcome nobody knows is `unknown`, and stays open (so the partial unique
 * index keeps any second attempt of its charge out) until CheckStatus or an operator settles it.
 * Each inconclusive status check is counted in reconcile_tries, which decides when to stop asking
 * and hand the attempt to an operator (RECONCILE_MAX_TRIES). Only an open attempt changes.
 */
export interface UnknownAttempt {
  readonly chargeId: string;
  readonly attemptId: string;
  readonly attemptNumber: number;
  readonly orderId: string;
  readonly why: string;
  /** True for an inconclusive status check, false for the call that just went unanswered. */
  readonly countTry: boolean;
  readonly actor: string;
}

/** Returns false when the attempt was no longer open (another worker settled it first). */
export async function markAttemptUnknown(
  ctx: Pick<EngineContext, "db" | "clock">,
  attempt: UnknownAttempt,
): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const [marked] = await tx
      .update(chargeAttempts)
      .set({
        status: "unknown",
        reconcileTries: attempt.countTry ? sql`${chargeAttempts.reconcileTries} + 1` : undefined,
      })
      .where(
        and(
          eq(chargeAttempts.id, attempt.attemptId),
          inArray(chargeAttempts.status, ["in_flight", "unknown"]),
        ),
      )
      .returning({ reconcileTries: chargeAttempts.reconcileTries });
    if (!marked) return false;
    await recordEvent(tx, {
      type: "charge.attempt_unknown",
      actor: attempt.actor,
      occurredAt: ctx.clock.now(),
      chargeId: attempt.chargeId,
      data: {
        attempt: attempt.attemptNumber,
        order_id: attempt.orderId,
        why: attempt.why,
        reconcile_tries: marked.reconcileTries,
      },
    });
    return true;
  });
}
