import { and, desc, eq } from "drizzle-orm";
import type { ChargeState } from "../billing/index.js";
import { firstLateCheckSeconds } from "../billing/index.js";
import { type EngineContext, refreshClock } from "../context/index.js";
import { chargeAttempts, charges } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { countReconcile, type ReconcileOutcome } from "../metrics/index.js";
import { ChargeNotFoundError, ChargeNotHeldError } from "./errors.js";
import { defaultQuietPeriodMs, sentBefore } from "./quiet-period.js";
import { lookUpStatus } from "./reconcile.js";
import { decideReconcile } from "./reconcile-decision.js";
import { releaseAttempt } from "./release-attempt.js";
import { recordOutcome } from "./settle-batch.js";

/**
 * An operator's way out of `needs_review` for an attempt whose outcome stayed unknown: CheckStatus
 * is asked about the held attempt's orderId once more, and what it says is settled through the
 * worker's own paths (decideReconcile, recordOutcome, releaseAttempt), with the operator as actor:
 *
 * | CheckStatus                         | attempt            | charge                                   |
 * |-------------------------------------|--------------------|------------------------------------------|
 * | found, SUCCESS                      | approved           | paid                                     |
 * | found, FAILURE                      | declined           | as the dunning reducer decides           |
 * | not found, attempt quiet            | failed_permanently | retrying, due now (the tick collects it) |
 * | not found yet, PENDING, or no reply | unchanged          | unchanged (`still_unknown`)              |
 *
 * GetnewPayment is never called here: a released charge is collected by the next tick and the
 * charge worker, once, like any retry that is due. A `charge.review_checked` event records each
 * check with the operator as actor (the settling events name the operator too).
 *
 * Throws ChargeNotFoundError, or ChargeNotHeldError when the charge is not in needs_review with a
 * held attempt (including when another operator settled it meanwhile).
 */
export type ReconcileHeldResult =
  | { readonly outcome: "paid"; readonly chargeId: string; readonly transactionId: string }
  | {
      readonly outcome: "declined";
      readonly chargeId: string;
      /** retrying (nextAttemptAt says when), uncollectible, or canceled with its subscription. */
      readonly chargeStatus: ChargeState;
      readonly nextAttemptAt: string | null;
      readonly description: string;
    }
  | {
      readonly outcome: "released";
      readonly chargeId: string;
      /** retrying (due now), or canceled when its subscription was canceled meanwhile. */
      readonly chargeStatus: ChargeState;
    }
  | { readonly outcome: "still_unknown"; readonly chargeId: string; readonly why: string };

export interface ReconcileHeldOptions {
  /** Recorded as the actor of every event: "cli", or the API key's name. */
  readonly actor: string;
  /** See quiet-period.ts; defaults to defaultQuietPeriodMs(ctx.config). */
  readonly quietPeriodMs?: number;
}

interface HeldAttempt {
  readonly id: string;
  readonly orderId: string;
  readonly attemptNumber: number;
  readonly reconcileTries: number;
  readonly quiet: boolean;
}

export async function reconcileHeldCharge(
  ctx: EngineContext,
  chargeId: string,
  options: ReconcileHeldOptions,
): Promise<ReconcileHeldResult> {
  const { actor } = options;
  await refreshClock(ctx.clock);
  const { subscriptionId, attempt } = await heldAttemptOf(
    ctx,
    chargeId,
    options.quietPeriodMs ?? defaultQuietPeriodMs(ctx.config),
  );
  const decision = decideReconcile({
    lookup: await lookUpStatus(ctx, attempt.orderId),
    quiet: attempt.quiet,
    reconcileTries: attempt.reconcileTries,
    maxTries: ctx.config.RECONCILE_MAX_TRIES,
  });
  ctx.logger.info(
    { chargeId, orderId: attempt.orderId, decision: decision.kind, actor },
    "reconciling a held attempt",
  );

  let result: ReconcileHeldResult;
  switch (decision.kind) {
    case "settle": {
      const settled = await recordOutcome(ctx, {
        chargeId,
        attempt,
        report: decision.report,
        actor,
        held: true,
      });
      if (settled.kind === "paid") {
        result = { outcome: "paid", chargeId, transactionId: settled.transactionId };
      } else if (settled.kind === "declined") {
        result = {
          outcome: "declined",
          chargeId,
          chargeStatus: settled.chargeStatus,
          nextAttemptAt: settled.nextAttemptAt,
          description: settled.description,
        };
      } else {
        throw new ChargeNotHeldError(chargeId, null, "settled by someone else meanwhile");
      }
      break;
    }
    case "not_charged": {
      const released = await releaseAttempt(ctx, {
        chargeId,
        attemptId: attempt.id,
        attemptNumber: attempt.attemptNumber,
        code: "not_found",
        description: "CheckStatus does not know the orderId: the payment was never taken",
        lateCheckAfterSeconds: firstLateCheckSeconds(ctx.config),
        actor,
        held: true,
      });
      if (!released) throw new ChargeNotHeldError(chargeId, null, "settled by someone else meanwhile");
      const [row] = await ctx.db
        .select({ status: charges.status })
        .from(charges)
        .where(eq(charges.id, chargeId));
      result = { outcome: "released", chargeId, chargeStatus: row?.status ?? "retrying" };
      break;
    }
    case "wait":
    case "needs_review":
      result = { outcome: "still_unknown", chargeId, why: decision.why };
      break;
  }

  await recordEvent(ctx.db, {
    type: "charge.review_checked",
    actor,
    occurredAt: ctx.clock.now(),
    subscriptionId,
    chargeId,
    data: {
      attempt: attempt.attemptNumber,
      order_id: attempt.orderId,
      outcome: result.outcome,
      ...(result.outcome === "still_unknown" ? { why: result.why } : {}),
    },
  });
  countReconcile(RECONCILE_OUTCOME[result.outcome]);
  return result;
}

/** billing_reconcile_total counts an operator's check like the worker's; a held one stays held. */
const RECONCILE_OUTCOME: Record<ReconcileHeldResult["outcome"], ReconcileOutcome> = {
  paid: "approved",
  declined: "declined",
  released: "not_found",
  still_unknown: "still_unknown",
};

async function heldAttemptOf(
  ctx: EngineContext,
  chargeId: string,
  quietPeriodMs: number,
): Promise<{ subscriptionId: string; attempt: HeldAttempt }> {
  const [charge] = await ctx.db
    .select({ status: charges.status, subscriptionId: charges.subscriptionId })
    .from(charges)
    .where(eq(charges.id, chargeId));
  if (!charge) throw new ChargeNotFoundError(chargeId);
  if (charge.status !== "needs_review")
    throw new ChargeNotHeldError(chargeId, charge.status, `it is ${charge.status}`);
  const [attempt] = await ctx.db
    .select({
      id: chargeAttempts.id,
      orderId: chargeAttempts.orderId,
      attemptNumber: chargeAttempts.attemptNumber,
      reconcileTries: chargeAttempts.reconcileTries,
      quiet: sentBefore(chargeAttempts.createdAt, quietPeriodMs),
    })
    .from(chargeAttempts)
    .where(and(eq(chargeAttempts.chargeId, chargeId), eq(chargeAttempts.status, "needs_review")))
    .orderBy(desc(chargeAttempts.attemptNumber))
    .limit(1);
  if (!attempt) {
    throw new ChargeNotHeldError(
      chargeId,
      charge.status,
      "it is under review for a gateway refusal, not an unknown outcome",
    );
  }
  return { subscriptionId: charge.subscriptionId, attempt: { ...attempt, quiet: attempt.quiet === true } };
}
