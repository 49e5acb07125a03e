import { firstLateCheckSeconds } from "../billing/index.js";
import { recordGatewaySignal } from "../breaker/index.js";
import type { EngineContext } from "../context/index.js";
import { GatewayError } from "../gateway/index.js";
import { countReconcile } from "../metrics/index.js";
import { AttemptInFlightError, ChargeOutcomeUnknownError } from "./errors.js";
import type { OpenAttempt } from "./load-charges.js";
import { markAttemptUnknown } from "./mark-attempt-unknown.js";
import { decideReconcile, type StatusLookup } from "./reconcile-decision.js";
import { releaseAttempt } from "./release-attempt.js";
import { type ChargeResult, skipped } from "./result.js";
import { recordOutcome } from "./settle-batch.js";

/**
 * Settles an open attempt (in_flight after a crash, or unknown after a timeout, 5xx or dropped
 * reply) from CheckStatus on its orderId, following decideReconcile. Nothing is sent to
 * GetnewPayment here: a new attempt is only allowed once this says `released`.
 *
 * An in_flight attempt younger than the quiet period may belong to a worker that is still waiting
 * for the gateway; it is left alone (AttemptInFlightError: retried later). What was decided is
 * counted in billing_reconcile_total once written, and not when another worker wrote first.
 */
export type Reconciled =
  | { readonly kind: "settled"; readonly result: ChargeResult }
  | { readonly kind: "released" };

const ACTOR = "reconciler";

/** CheckStatus on an orderId; a failure to ask is an answer too (`failed`), never thrown. */
export async function lookUpStatus(
  ctx: Pick<EngineContext, "gateway" | "logger">,
  orderId: string,
): Promise<StatusLookup> {
  try {
    return { kind: "lookup", result: await ctx.gateway.legacy.checkStatus({ orderId }) };
  } catch (err) {
    if (err instanceof GatewayError && err.throttled) {
      return { kind: "throttled", description: err.message };
    }
    ctx.logger.warn({ err, orderId }, "CheckStatus failed while reconciling");
    return { kind: "failed", description: err instanceof Error ? err.message : String(err) };
  }
}

export async function reconcileAttempt(
  ctx: EngineContext,
  chargeId: string,
  attempt: OpenAttempt,
): Promise<Reconciled> {
  if (attempt.status === "in_flight" && !attempt.quiet)
    throw new AttemptInFlightError(chargeId, attempt.attemptNumber, attempt.orderId);
  const lookup = await lookUpStatus(ctx, attempt.orderId);
  // A status check failing for many attempts is the gateway's failure, not each charge's (breaker/);
  // once the breaker is open, the attempt waits for it instead of counting towards review.
  const breakerOpen =
    lookup.kind === "failed" && (await recordGatewaySignal(ctx, "status_check_failed", attempt.id)).paused;
  const decision = decideReconcile({
    lookup,
    quiet: attempt.quiet,
    reconcileTries: attempt.reconcileTries,
    maxTries: ctx.config.RECONCILE_MAX_TRIES,
    breakerOpen,
  });
  ctx.logger.info({ chargeId, orderId: attempt.orderId, decision: decision.kind }, "reconciling attempt");

  switch (decision.kind) {
    case "settle": {
      // A status check that finds what we sent weighs against "the gateway forgot" (breaker/).
      await recordGatewaySignal(ctx, "found", attempt.id);
      const result = await recordOutcome(ctx, { chargeId, attempt, report: decision.report, actor: ACTOR });
      if (result.kind !== "skipped") countReconcile(decision.report.kind);
      return { kind: "settled", result };
    }
    case "needs_review": {
      const result = await recordOutcome(ctx, {
        chargeId,
        attempt,
        report: { kind: "unresolved", why: decision.why },
        actor: ACTOR,
      });
      if (result.kind !== "skipped") countReconcile("held");
      return { kind: "settled", result };
    }
    case "not_charged": {
      const released = await releaseAttempt(ctx, {
        chargeId,
        attemptId: attempt.id,
        attemptNumber: attempt.attemptNumber,
        code: "not_found",
        description: "CheckStatus does not know the orderId: the payment was never taken",
        lateCheckAfterSeconds: firstLateCheckSeconds(ctx.config),
        actor: ACTOR,
      });
      if (!released) return { kind: "settled", result: skipped(chargeId, "already_recorded") };
      countReconcile("not_found");
      // Many sent payments "not found" is the gateway's problem, not each charge's (breaker/).
      await recordGatewaySignal(ctx, "not_found", attempt.id);
      return { kind: "released" };
    }
    case "wait": {
      const marked = await markAttemptUnknown(ctx, {
        chargeId,
        attemptId: attempt.id,
        attemptNumber: attempt.attemptNumber,
        orderId: attempt.orderId,
        why: decision.why,
        countTry: decision.counted,
        actor: ACTOR,
      });
      if (marked) countReconcile("still_unknown");
      throw new ChargeOutcomeUnknownError(chargeId, attempt.attemptNumber, attempt.orderId, decision.why);
    }
  }
}
