import type { DateTime } from "luxon";
import { type AttemptOutcome, explainDecline } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { pgTimestamp, type SqlTx } from "../db/index.js";
import { type ChargeAttemptOutcome, countChargeAttempt } from "../metrics/index.js";
import {
  afterDecision,
  type ChargeColumns,
  type DecidedOutcome,
  decideOutcome,
  type LockedSubscription,
} from "./decide-outcome.js";
import type { GatewayReport } from "./gateway-report.js";
import { lockCharges } from "./lock-charges.js";
import { runOutcomeEffects } from "./outcome-effects.js";
import { type ChargeResult, skipped } from "./result.js";
import { settlingFrom } from "./settling-from.js";
import { writeOutcomes } from "./write-outcomes.js";

/**
 * Rule: settled outcomes of attempts are recorded in ONE transaction with their charges, their
 * subscriptions and the event log, however many there are: the rows are locked (lock-charges.ts),
 * the attempts settled by one conditional UPDATE … FROM unnest, the chargeOutcome reducer applied
 * row by row in memory (decide-outcome.ts), and the decisions written in bulk (write-outcomes.ts).
 * Only an open attempt (in_flight or unknown) of a charge in `processing` is settled, or, for an
 * operator's reconcile, a held attempt (needs_review) of a charge in `needs_review`: of two racing
 * workers exactly one settles it, and the other gets `already_recorded`.
 *
 * | report     | attempt            | reducer outcome |
 * |------------|--------------------|-----------------|
 * | approved   | approved           | approved        |
 * | declined   | declined           | declined        |
 * | rejected   | failed_permanently | rejected        |
 * | unresolved | needs_review       | unknown         |
 *
 * `unresolved` is an attempt that reconciliation could not settle: charge and attempt wait for an
 * operator, and nothing more is sent. Follow-up work (invoices, card stops) is queued, and each
 * attempt counted in billing_charge_attempts_total, once the transaction has committed.
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

type SettlingCtx = Pick<EngineContext, "db" | "clock" | "dunning" | "queues" | "logger">;

/** Settles the outcomes together; results in input order. */
export async function settleBatch(
  ctx: SettlingCtx,
  inputs: readonly OutcomeInput[],
): Promise<ChargeResult[]> {
  if (inputs.length === 0) return [];
  const now = ctx.clock.now();
  const decided = await ctx.db.$client.begin((tx) => settleIn(tx, ctx, inputs, now));
  const results: ChargeResult[] = [];
  for (const [index, input] of inputs.entries()) {
    const decision = decided.get(index);
    if (!decision) {
      results.push(skipped(input.chargeId, "already_recorded"));
      continue;
    }
    countAttempt(input.report);
    await runOutcomeEffects(ctx, decision.effects);
    results.push(resultOf(input, decision));
  }
  return results;
}

/** One outcome (a reconcile, an operator's check, a test stopping between steps). */
export async function recordOutcome(ctx: SettlingCtx, input: OutcomeInput): Promise<ChargeResult> {
  const [result] = await settleBatch(ctx, [input]);
  return result!;
}

async function settleIn(
  tx: SqlTx,
  ctx: SettlingCtx,
  inputs: readonly OutcomeInput[],
  now: DateTime,
): Promise<Map<number, DecidedOutcome>> {
  const locked = await lockCharges(
    tx,
    inputs.map((input) => input.chargeId),
  );
  const settleable = [...inputs.entries()].filter(
    ([, input]) => locked.get(input.chargeId)?.charge.status === settlingFrom(input.held ?? false).charge,
  );
  if (settleable.length === 0) return new Map();

  const at = pgTimestamp(now);
  const columns = settleable.map(([, input]) => attemptColumns(input.report));
  const settledIds = await tx<{ id: string }[]>`
    update charge_attempts a set
      status = v.status::charge_attempt_status,
      gateway_transaction_id = coalesce(v.transaction_id, a.gateway_transaction_id),
      auth_code = coalesce(v.auth_code, a.auth_code),
      decline_code = coalesce(v.decline_code, a.decline_code),
      decline_description = coalesce(v.decline_description, a.decline_description),
      settled_at = case when v.settles then ${at}::timestamptz else a.settled_at end,
      reconcile_tries = a.reconcile_tries + case when v.settles then 0 else 1 end
    from unnest(
      ${settleable.map(([, input]) => input.attempt.id)}::uuid[], ${settleable.map(([, i]) => String(i.held ?? false))}::text[]::bool[],
      ${columns.map((c) => c.status)}::text[], ${columns.map((c) => c.transactionId)}::text[],
      ${columns.map((c) => c.authCode)}::text[], ${columns.map((c) => c.declineCode)}::text[],
      ${columns.map((c) => c.declineDescription)}::text[], ${columns.map((c) => String(c.settles))}::text[]::bool[]
    ) as v(id, held, status, transaction_id, auth_code, decline_code, decline_description, settles)
    where a.id = v.id
      and (case when v.held then a.status = 'needs_review' else a.status in ('in_flight', 'unknown') end)
    returning a.id`;
  const settled = new Set(settledIds.map((row) => row.id));

  // Row by row, in order: a later charge of the same subscription sees the earlier one's change.
  const subscriptions = new Map<string, LockedSubscription>();
  const decisions = new Map<number, DecidedOutcome>();
  for (const [index, input] of settleable) {
    if (!settled.has(input.attempt.id)) continue;
    const rows = locked.get(input.chargeId)!;
    const subscription = subscriptions.get(rows.subscription.id) ?? rows.subscription;
    const decision = decideOutcome(
      { ...rows, subscription },
      {
        outcome: reducerOutcome(input.report),
        sentAttempts: 1,
        policy: ctx.dunning,
        now,
        actor: input.actor,
        chargeColumns: chargeColumns(input.report, now),
        eventData: {
          "charge.needs_review": { attempt: input.attempt.attemptNumber, attempt_id: input.attempt.id },
        },
      },
    );
    subscriptions.set(subscription.id, afterDecision(subscription, decision));
    decisions.set(index, decision);
  }
  await writeOutcomes(tx, [...decisions.values()]);
  return decisions;
}

interface AttemptColumns {
  readonly status: string;
  readonly transactionId: string | null;
  readonly authCode: string | null;
  readonly declineCode: string | null;
  readonly declineDescription: string | null;
  /** False for `unresolved`: the attempt is held, not settled, and the try that gave up counts. */
  readonly settles: boolean;
}

function attemptColumns(report: FinalReport): AttemptColumns {
  const none = { transactionId: null, authCode: null, declineCode: null, declineDescription: null };
  switch (report.kind) {
    case "approved":
      return {
        ...none,
        status: "approved",
        transactionId: report.transactionId,
        authCode: report.authCode,
        settles: true,
      };
    case "declined":
      return {
        ...none,
        status: "declined",
        transactionId: report.transactionId,
        declineCode: explainDecline(report.description).reason,
        declineDescription: report.description,
        settles: true,
      };
    case "rejected":
      return {
        ...none,
        status: "failed_permanently",
        declineCode: report.code,
        declineDescription: report.description,
        settles: true,
      };
    case "unresolved":
      // reconcile_tries then reads RECONCILE_MAX_TRIES.
      return { ...none, status: "needs_review", declineDescription: report.why, settles: false };
  }
}

/** The attempt status each report is written with (attemptColumns), as billing_charge_attempts_total counts it. */
const COUNTED_AS = {
  approved: "approved",
  declined: "declined",
  rejected: "failed_permanently",
  unresolved: "needs_review",
} as const satisfies Record<FinalReport["kind"], ChargeAttemptOutcome>;

/** Called once the transaction has committed. */
function countAttempt(report: FinalReport): void {
  const reason = report.kind === "declined" ? explainDecline(report.description).reason : "";
  countChargeAttempt(COUNTED_AS[report.kind], reason);
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

function chargeColumns(report: FinalReport, now: DateTime): ChargeColumns {
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

function resultOf(input: OutcomeInput, decision: DecidedOutcome): ChargeResult {
  const { chargeId, attempt, report } = input;
  const { result } = decision;
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
        nextAttemptAt: result.nextAttemptAt ? pgTimestamp(result.nextAttemptAt) : null,
        description: report.description,
      };
    case "rejected":
      return { kind: "needs_review", chargeId, reason: "gateway_rejected", description: report.description };
    case "unresolved":
      return { kind: "needs_review", chargeId, reason: "outcome_unknown", description: report.why };
  }
}
