import { and, eq, inArray, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { EngineContext } from "../app/index.js";
import { type AttemptOutcome, explainDecline } from "../billing/index.js";
import { chargeAttempts } from "../db/schema/index.js";
import { type AppliedOutcome, applyOutcome, lockCharge } from "./apply-outcome.js";
import type { GatewayReport } from "./gateway-report.js";
import { runOutcomeEffects } from "./outcome-effects.js";
import { type ChargeResult, skipped } from "./result.js";
import { settlingFrom } from "./settling-from.js";

/**
 * Rule: the settled outcome of an attempt is recorded in ONE transaction with its charge, its
 * subscription and the event log (chargeOutcome decides; apply-outcome.ts writes). Only an open
 * attempt (in_flight or unknown) of a charge in `processing` is settled, or, for an operator's
 * reconcile, a held attempt (needs_review) of a charge in `needs_review`: the conditional update
 * lets exactly one of two racing workers record it, and the other returns `already_recorded`.
 *
 * | report     | attempt            | reducer outcome |
 * |------------|--------------------|-----------------|
 * | approved   | approved           | approved        |
 * | declined   | declined           | declined        |
 * | rejected   | failed_permanently | rejected        |
 * | unresolved | needs_review       | unknown         |
 *
 * `unresolved` is an attempt that reconciliation could not settle: charge and attempt wait for an
 * operator, and nothing more is sent.
 */
export type FinalReport =
  | Extract<GatewayReport, { kind: "approved" | "declined" | "rejected" }>
  | { readonly kind: "unresolved"; readonly why: string };

export interface OutcomeInput {
  readonly chargeId: string;
  readonly attempt: { readonly id: string; readonly attemptNumber: number };
  readonly report: FinalReport;
  /** Who learned the outcome: "gateway" for a reply, "reconciler" for a status check. */
  readonly actor: string;
  /**
   * The attempt is one reconciliation gave up on (attempt and charge in needs_review) and an
   * operator's status check settles it (reconcile-held-charge.ts); otherwise the attempt is open
   * and its charge in processing. Default false.
   */
  readonly held?: boolean;
}

function attemptColumns(report: FinalReport, settledAt: Date): PgUpdateSetSource<typeof chargeAttempts> {
  switch (report.kind) {
    case "approved":
      return {
        status: "approved",
        gatewayTransactionId: report.transactionId,
        authCode: report.authCode,
        settledAt,
      };
    case "declined":
      return {
        status: "declined",
        gatewayTransactionId: report.transactionId,
        declineCode: explainDecline(report.description).reason,
        declineDescription: report.description,
        settledAt,
      };
    case "rejected":
      return {
        status: "failed_permanently",
        declineCode: report.code,
        declineDescription: report.description,
        settledAt,
      };
    case "unresolved":
      // The try that gave up counts too: reconcile_tries then reads RECONCILE_MAX_TRIES.
      return {
        status: "needs_review",
        declineDescription: report.why,
        reconcileTries: sql`${chargeAttempts.reconcileTries} + 1`,
      };
  }
}

function reducerOutcome(report: FinalReport): AttemptOutcome {
  switch (report.kind) {
    case "approved":
      return { kind: "approved", transactionId: report.transactionId };
    case "declined":
      return { kind: "declined", description: report.description };
    case "rejected": {
      const code = Number(report.code);
      return { kind: "rejected", code: Number.isInteger(code) ? code : 0, description: report.description };
    }
    case "unresolved":
      return { kind: "unknown" };
  }
}

function chargeColumns(report: FinalReport, now: Date) {
  switch (report.kind) {
    case "approved":
      return { paidAt: now, paidTransactionId: report.transactionId };
    case "declined":
      return {
        lastDeclineCode: explainDecline(report.description).reason,
        lastDeclineDescription: report.description,
      };
    case "rejected":
      return { lastDeclineCode: report.code, lastDeclineDescription: report.description };
    case "unresolved":
      return {};
  }
}

export async function recordOutcome(
  ctx: Pick<EngineContext, "db" | "clock" | "dunning" | "queues" | "logger">,
  input: OutcomeInput,
): Promise<ChargeResult> {
  const { chargeId, attempt, report } = input;
  const now = ctx.clock.now();
  const applied = await ctx.db.transaction(async (tx): Promise<AppliedOutcome | null> => {
    const from = settlingFrom(input.held ?? false);
    const locked = await lockCharge(tx, chargeId);
    if (locked?.charge.status !== from.charge) return null;
    const [settled] = await tx
      .update(chargeAttempts)
      .set(attemptColumns(report, now.toJSDate()))
      .where(and(eq(chargeAttempts.id, attempt.id), inArray(chargeAttempts.status, from.attempt)))
      .returning({ id: chargeAttempts.id });
    if (!settled) return null;
    return applyOutcome(tx, locked, {
      outcome: reducerOutcome(report),
      sentAttempts: 1,
      policy: ctx.dunning,
      now,
      actor: input.actor,
      chargeColumns: chargeColumns(report, now.toJSDate()),
      eventData: {
        "charge.needs_review": { attempt: attempt.attemptNumber, attempt_id: attempt.id },
      },
    });
  });
  if (!applied) return skipped(chargeId, "already_recorded");
  await runOutcomeEffects(ctx, applied.effects);

  const { result } = applied;
  switch (report.kind) {
    case "approved":
      return {
        kind: "paid",
        chargeId,
        attemptNumber: attempt.attemptNumber,
        transactionId: report.transactionId,
      };
    case "declined":
      return {
        kind: "declined",
        chargeId,
        attemptNumber: attempt.attemptNumber,
        chargeStatus: result.chargeState,
        nextAttemptAt: result.nextAttemptAt?.toUTC().toISO() ?? null,
        description: report.description,
      };
    case "rejected":
      return { kind: "needs_review", chargeId, reason: "gateway_rejected", description: report.description };
    case "unresolved":
      return { kind: "needs_review", chargeId, reason: "outcome_unknown", description: report.why };
  }
}
