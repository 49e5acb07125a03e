import type { EngineContext } from "../app/index.js";
import { tokenStatus } from "../billing/index.js";
import { callGateway } from "./call-gateway.js";
import { cancelOrphanedCharge } from "./cancel-orphaned-charge.js";
import { ChargeNotFoundError, ChargeOutcomeUnknownError, GatewayNotReachedError } from "./errors.js";
import type { GatewayReport } from "./gateway-report.js";
import { type ChargeSnapshot, loadCharge } from "./load-charge.js";
import { markAttemptUnknown } from "./mark-attempt-unknown.js";
import { defaultQuietPeriodMs } from "./quiet-period.js";
import { readiness } from "./readiness.js";
import { reconcileAttempt } from "./reconcile.js";
import { type RecordedAttempt, recordAttempt } from "./record-attempt.js";
import { recordOutcome } from "./record-outcome.js";
import { releaseAttempt } from "./release-attempt.js";
import { type ChargeResult, skipped } from "./result.js";
import { settleUnusableToken } from "./settle-unusable-token.js";

/**
 * The charge job's body: takes one charge one step further, never charging a card twice.
 *
 *   1. an open attempt (in_flight or unknown) is reconciled FIRST, with CheckStatus on its orderId
 *      (reconcile.ts); only when that proves no money moved may a new attempt follow;
 *   2. a charge that is not ready (settled, not due, under review) is left alone;
 *   3. a card that cannot be charged ends collection without calling the gateway
 *      (settle-unusable-token.ts);
 *   4. a waiting charge of a canceled subscription is canceled, never sent (cancel-orphaned-charge.ts);
 *   5. otherwise: record the attempt and COMMIT (recordAttempt), call GetnewPayment (callGateway),
 *      record the outcome in one transaction (recordOutcome).
 *
 * An unknown outcome is thrown (ChargeOutcomeUnknownError) after it is recorded, so BullMQ retries
 * with backoff and the retry starts at step 1. The building blocks are exported for tools and
 * tests that need to stop between them (a crash between steps 5a and 5c, for instance).
 */
export interface ProcessChargeOptions {
  /**
   * Attempt now even if the next attempt is not due, and collect an uncollectible charge again
   * (an operator's "retry now", or a dunning run over every retrying charge). Default false.
   */
  readonly force?: boolean;
  /** See quiet-period.ts; defaults to defaultQuietPeriodMs(ctx.config). */
  readonly quietPeriodMs?: number;
}

const GATEWAY_ACTOR = "gateway";

export async function processCharge(
  ctx: EngineContext,
  chargeId: string,
  options: ProcessChargeOptions = {},
): Promise<ChargeResult> {
  const settings = {
    force: options.force ?? false,
    quietPeriodMs: options.quietPeriodMs ?? defaultQuietPeriodMs(ctx.config),
  };
  const snapshot = await snapshotOf(ctx, chargeId, settings.quietPeriodMs);
  if (snapshot.openAttempt) {
    const reconciled = await reconcileAttempt(ctx, chargeId, snapshot.openAttempt);
    if (reconciled.kind === "settled") return reconciled.result;
    return attemptCharge(ctx, await snapshotOf(ctx, chargeId, settings.quietPeriodMs), settings);
  }
  return attemptCharge(ctx, snapshot, settings);
}

async function snapshotOf(
  ctx: EngineContext,
  chargeId: string,
  quietPeriodMs: number,
): Promise<ChargeSnapshot> {
  const snapshot = await loadCharge(ctx.db, chargeId, { quietPeriodMs });
  if (!snapshot) throw new ChargeNotFoundError(chargeId);
  return snapshot;
}

async function attemptCharge(
  ctx: EngineContext,
  snapshot: ChargeSnapshot,
  settings: { force: boolean; quietPeriodMs: number },
): Promise<ChargeResult> {
  const { charge, subscription, paymentMethod } = snapshot;
  const now = ctx.clock.now();
  const ready = readiness(charge, now, settings.force);
  if (ready === "in_progress") return skipped(charge.id, "claimed_elsewhere");
  if (ready !== "ready") return skipped(charge.id, ready);

  const token = paymentMethod ? tokenStatus(paymentMethod.lifecycle, now) : "missing";
  if (!paymentMethod || token !== "active") {
    if (charge.status === "uncollectible") return skipped(charge.id, "payment_method_unusable");
    return settleUnusableToken(ctx, {
      chargeId: charge.id,
      subscriptionId: subscription.id,
      paymentMethodId: paymentMethod?.id ?? null,
      reason: paymentMethod ? `card token ${token}` : "no card on file",
    });
  }

  // A late no-money outcome of an attempt that was in flight when the subscription was canceled
  // cancels its charge itself; a waiting charge of a canceled subscription found anyway is
  // canceled here, never sent again (cancel-orphaned-charge.ts).
  if (subscription.status === "canceled" && charge.status !== "uncollectible") {
    if (await cancelOrphanedCharge(ctx, charge.id)) return skipped(charge.id, "settled");
    return skipped(charge.id, "claimed_elsewhere");
  }

  // Decrypted before the attempt is recorded: a key problem must not leave an attempt behind.
  const cardToken = ctx.vault.decrypt(paymentMethod.sealed);
  const attempt = await recordAttempt(ctx, charge, { actor: "system", forced: settings.force });
  if (!attempt) return skipped(charge.id, "claimed_elsewhere");
  const report = await callGateway(ctx, {
    cardToken,
    kind: paymentMethod.kind,
    orderId: attempt.orderId,
    amount: { minor: charge.amountMinor, currency: charge.currency },
  });
  const settled = await settleReport(ctx, attempt, report, paymentMethod.id);
  if (settled) return settled;
  // -7: the token was marked unusable and the charge is due again; the unusable-card path ends it.
  return attemptCharge(ctx, await snapshotOf(ctx, charge.id, settings.quietPeriodMs), settings);
}

/** Records what the gateway said; null when the charge went back to waiting for another pass. */
async function settleReport(
  ctx: EngineContext,
  attempt: RecordedAttempt,
  report: GatewayReport,
  paymentMethodId: string,
): Promise<ChargeResult | null> {
  const { chargeId } = attempt;
  const release = {
    chargeId,
    attemptId: attempt.id,
    attemptNumber: attempt.attemptNumber,
    actor: GATEWAY_ACTOR,
  };
  switch (report.kind) {
    case "approved":
    case "declined":
    case "rejected":
      return recordOutcome(ctx, { chargeId, attempt, report, actor: GATEWAY_ACTOR });
    case "unknown":
      await markAttemptUnknown(ctx, {
        ...release,
        orderId: attempt.orderId,
        why: report.description,
        countTry: false,
      });
      throw new ChargeOutcomeUnknownError(
        chargeId,
        attempt.attemptNumber,
        attempt.orderId,
        report.description,
      );
    case "not_sent":
      await releaseAttempt(ctx, { ...release, code: "not_sent", description: report.description });
      throw new GatewayNotReachedError(chargeId, attempt.attemptNumber, report.description);
    case "token_unusable":
      await releaseAttempt(ctx, {
        ...release,
        code: report.code,
        description: report.description,
        unusablePaymentMethodId: paymentMethodId,
      });
      return null;
  }
}
