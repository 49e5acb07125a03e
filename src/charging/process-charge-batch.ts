import { tokenStatus } from "../billing/index.js";
import { collectionPaused } from "../breaker/index.js";
import type { EngineContext } from "../context/index.js";
import { cancelOrphanedCharge } from "./cancel-orphaned-charge.js";
import { claimBatch } from "./claim-batch.js";
import { AttemptInFlightError, ChargeNotFoundError } from "./errors.js";
import { type GatewayLimiter, UNLIMITED, type Wave } from "./gateway-limiter.js";
import { type ChargeSnapshot, loadCharges } from "./load-charges.js";
import { createOutcomeFlusher, type OutcomeFlusher } from "./outcome-flusher.js";
import { defaultQuietPeriodMs } from "./quiet-period.js";
import { readiness } from "./readiness.js";
import { reconcileAttempt } from "./reconcile.js";
import { type ChargeResult, skipped } from "./result.js";
import { type BatchSink, type SendableAttempt, type SentRound, sendBatch } from "./send-batch.js";
import { sendPaymentLinks } from "./send-payment-links.js";
import { type OutcomeInput, settleBatch } from "./settle-batch.js";
import { settleUnusableToken } from "./settle-unusable-token.js";
import { verifyDecline } from "./verify-decline.js";

/**
 * The charge job's body: takes a batch of charges one step further, never charging a card twice.
 *
 *   1. load every charge of the batch in one query (load-charges.ts);
 *   2. an open attempt (in_flight or unknown) is reconciled FIRST, with CheckStatus on its orderId
 *      (reconcile.ts); only when that proves no money moved may a new attempt follow;
 *   3. a charge that is not ready (settled, not due, under review, awaiting its payment link) is
 *      left alone; a ready one whose last attempt was stored as declined without a transaction id
 *      is settled by CheckStatus first (verify-decline.ts: paid by it, or held, means nothing more
 *      happens now); a charge of a subscription that pays by link gets its link instead of a card
 *      attempt (send-payment-links.ts);
 *   4. a card that cannot be charged ends collection without calling the gateway
 *      (settle-unusable-token.ts);
 *   5. a waiting charge of a canceled subscription is canceled, never sent (cancel-orphaned-charge.ts);
 *   6. the rest are claimed together: their attempts recorded and COMMITTED (claim-batch.ts), sent
 *      concurrently (send-batch.ts), and their outcomes recorded in groups (settle-batch.ts).
 *
 * Every charge ends in `results` or, when it must be tried again later (an unknown outcome, the
 * gateway not reached, an attempt still in flight elsewhere) or failed, in `failures`; one charge's
 * trouble never stops the others. Running a batch again is safe: step 2 comes first.
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

export interface BatchOptions extends ProcessChargeOptions {
  /** The process's bound on gateway calls (gateway-limiter.ts); default none. */
  readonly limiter?: GatewayLimiter;
  /**
   * Where outcomes are recorded: the process's flusher, shared by its jobs so that outcomes of
   * several batches finishing together share a transaction. Default: one for this batch, holding
   * an outcome at most `flushMs`.
   */
  readonly flusher?: ChargeFlusher;
  /** For the batch's own flusher: default CHARGE_FLUSH_MS. */
  readonly flushMs?: number;
}

/** Records outcomes in groups (outcome-flusher.ts around settle-batch.ts). */
export type ChargeFlusher = OutcomeFlusher<OutcomeInput, ChargeResult>;

/** The flusher a worker process shares between its jobs. */
export function createChargeFlusher(
  ctx: EngineContext,
  options: { flushMs: number; maxGroup: number },
): ChargeFlusher {
  return createOutcomeFlusher({ ...options, flush: (items) => settleBatch(ctx, items) });
}

/** Charges claimed together at the least, when that many are waiting: fewer, larger claims. */
const MIN_WAVE = 32;

/**
 * Rounds a job sends charges the gateway throttled (429) again, each once the slowed limiter lets
 * it; past them the charges stay due and the next tick hands them out again, the job still done.
 */
const THROTTLED_ROUNDS = 3;

export interface BatchResult extends BatchSink {}

interface Run {
  readonly ctx: EngineContext;
  readonly force: boolean;
  readonly quietPeriodMs: number;
  readonly limiter: GatewayLimiter;
  readonly flusher: ChargeFlusher | undefined;
  readonly flushMs: number;
  readonly sink: BatchSink;
}

export async function processChargeBatch(
  ctx: EngineContext,
  chargeIds: readonly string[],
  options: BatchOptions = {},
): Promise<BatchResult> {
  const run: Run = {
    ctx,
    force: options.force ?? false,
    quietPeriodMs: options.quietPeriodMs ?? defaultQuietPeriodMs(ctx.config),
    limiter: options.limiter ?? UNLIMITED,
    flusher: options.flusher,
    flushMs: options.flushMs ?? ctx.config.CHARGE_FLUSH_MS,
    sink: { results: new Map(), failures: new Map() },
  };
  const ids = [...new Set(chargeIds)];
  const snapshots = await load(run, ids);
  for (const id of ids) if (!snapshots.has(id)) run.sink.failures.set(id, new ChargeNotFoundError(id));

  // A charge waiting for its payment link is the customer's to pay: its checkouts are not card
  // attempts to reconcile or retry here (payment-links/ settles them).
  for (const { charge } of snapshots.values())
    if (charge.status === "awaiting_payment")
      run.sink.results.set(charge.id, skipped(charge.id, "awaiting_customer"));
  const live = [...snapshots.values()].filter((s) => s.charge.status !== "awaiting_payment");
  const waiting = live.filter((s) => !s.openAttempt);
  const released = await reconcileOpen(
    run,
    live.filter((s) => s.openAttempt),
  );
  const due = [...waiting, ...(await load(run, released)).values()];
  if (due.length > 0 && (await collectionPaused(ctx.db.$client))) {
    // The gateway circuit breaker is open: nothing is sent until an operator resumes collection.
    for (const snapshot of due)
      run.sink.results.set(snapshot.charge.id, skipped(snapshot.charge.id, "collection_paused"));
    return run.sink;
  }
  await attempt(run, due);
  return run.sink;
}

function load(run: Run, ids: readonly string[]): Promise<Map<string, ChargeSnapshot>> {
  if (ids.length === 0) return Promise.resolve(new Map());
  return loadCharges(run.ctx.db, ids, { quietPeriodMs: run.quietPeriodMs });
}

/** Settles what CheckStatus can settle; returns the charges it proved were never charged. */
async function reconcileOpen(run: Run, open: readonly ChargeSnapshot[]): Promise<string[]> {
  const released: string[] = [];
  await Promise.all(
    open.map((snapshot) =>
      guard(run, snapshot.charge.id, async () => {
        const reconciled = await run.limiter.run(() =>
          reconcileAttempt(run.ctx, snapshot.charge.id, snapshot.openAttempt!),
        );
        if (reconciled.kind === "settled") return reconciled.result;
        released.push(snapshot.charge.id);
        return null;
      }),
    ),
  );
  return released;
}

async function attempt(run: Run, snapshots: readonly ChargeSnapshot[], round = 0): Promise<void> {
  if (snapshots.length === 0) return;
  let queue = (await Promise.all(snapshots.map((snapshot) => prepare(run, snapshot)))).filter(
    (send) => send !== null,
  );
  const flusher =
    run.flusher ??
    createChargeFlusher(run.ctx, { flushMs: run.flushMs, maxGroup: Math.max(1, queue.length) });
  // In waves: as many charges as the limiter lets start now are claimed together and sent at once.
  const sending: Promise<SentRound>[] = [];
  while (queue.length > 0) {
    const taken = await run.limiter.wave(queue.length, Math.min(queue.length, MIN_WAVE));
    const wave = queue.slice(0, taken.count);
    queue = queue.slice(taken.count);
    const sends = await claimWave(run, wave);
    const claimedAt = performance.now();
    run.limiter.give(taken.count - sends.length);
    sending.push(send(run, sends, taken, flusher, claimedAt));
  }
  const rounds = await Promise.all(sending);
  const refused = rounds.flatMap((sent) => sent.refused);
  const throttled = rounds.flatMap((sent) => sent.throttled);
  // -7: the card was marked unusable and the charge is due again; the unusable-card path ends it.
  await attempt(run, [...(await load(run, refused)).values()], round);
  if (round + 1 < THROTTLED_ROUNDS) {
    await attempt(run, [...(await load(run, throttled)).values()], round + 1);
  } else {
    for (const id of throttled) run.sink.results.set(id, skipped(id, "gateway_throttled"));
  }
}

/**
 * Sends a claimed wave once the limiter has dated it; a budget that cannot be told does not stop it.
 * A wave whose claim is older than a gateway call may last (GATEWAY_TIMEOUT_MS: a process that
 * stalled, or a host cut off from the network, between the claim and the send) is not sent: another
 * worker may already be reconciling its attempts, which it does once they are quiet, and a late call
 * could then charge a card twice. The attempts stay in flight for that reconciliation.
 */
async function send(
  run: Run,
  sends: readonly SendableAttempt[],
  wave: Wave,
  flusher: ChargeFlusher,
  claimedAt: number,
): Promise<SentRound> {
  if (sends.length > 0) {
    await wave.sending().catch((err: unknown) => {
      run.ctx.logger.warn({ err }, "could not date a wave in the shared gateway budget");
    });
  }
  const waited = performance.now() - claimedAt;
  if (sends.length > 0 && waited > run.ctx.config.GATEWAY_TIMEOUT_MS) {
    run.limiter.give(sends.length);
    run.ctx.logger.warn(
      { charges: sends.length, waitedMs: Math.round(waited) },
      "a claimed wave waited longer than a gateway call may last; left to reconciliation, not sent",
    );
    for (const { attempt } of sends) {
      run.sink.failures.set(
        attempt.chargeId,
        new AttemptInFlightError(attempt.chargeId, attempt.attemptNumber, attempt.orderId),
      );
    }
    return { refused: [], throttled: [] };
  }
  return sendBatch(run.ctx, sends, { limiter: run.limiter, flusher }, run.sink);
}

async function claimWave(run: Run, wave: readonly Prepared[]): Promise<SendableAttempt[]> {
  const sends: SendableAttempt[] = [];
  try {
    const attempts = await claimBatch(
      run.ctx,
      wave.map((r) => r.snapshot.charge),
      { actor: "system", forced: run.force },
    );
    for (const { snapshot, send } of wave) {
      const recorded = attempts.get(snapshot.charge.id);
      if (recorded) sends.push({ ...send, attempt: recorded });
      else run.sink.results.set(snapshot.charge.id, skipped(snapshot.charge.id, "claimed_elsewhere"));
    }
  } catch (error) {
    for (const { snapshot } of wave) run.sink.failures.set(snapshot.charge.id, error);
  }
  return sends;
}

type Prepared = { snapshot: ChargeSnapshot; send: Omit<SendableAttempt, "attempt"> };

/** Steps 3 to 5 for one charge; what to send, or null when the charge was dealt with here. */
async function prepare(run: Run, snapshot: ChargeSnapshot): Promise<Prepared | null> {
  let prepared: Prepared | null = null;
  await guard(run, snapshot.charge.id, async () => {
    const { ctx } = run;
    const { charge, subscription, paymentMethod } = snapshot;
    const now = ctx.clock.now();
    const ready = readiness(charge, now, run.force);
    if (ready === "in_progress") return skipped(charge.id, "claimed_elsewhere");
    if (ready !== "ready") return skipped(charge.id, ready);
    if (snapshot.unverifiedDecline) {
      const decline = snapshot.unverifiedDecline;
      const verified = await run.limiter.run(() =>
        verifyDecline(ctx, { id: charge.id, subscriptionId: subscription.id, decline }),
      );
      if (verified) return verified;
    }
    if (subscription.collectionMethod === "send_payment_link" && subscription.status !== "canceled") {
      const sent = await sendPaymentLinks(ctx, [charge.id], "system");
      return skipped(charge.id, sent.length > 0 ? "link_sent" : "claimed_elsewhere");
    }

    const token = paymentMethod ? tokenStatus(paymentMethod.lifecycle, now) : "missing";
    const unusable = !paymentMethod
      ? "no card on file"
      : token !== "active"
        ? `card token ${token}`
        : wrongRecurringAmount(paymentMethod, charge);
    if (!paymentMethod || unusable) {
      if (charge.status === "uncollectible") return skipped(charge.id, "payment_method_unusable");
      return settleUnusableToken(ctx, {
        chargeId: charge.id,
        subscriptionId: subscription.id,
        paymentMethodId: paymentMethod?.id ?? null,
        reason: unusable ?? "no card on file",
      });
    }
    // A late no-money outcome of an attempt in flight when the subscription was canceled cancels
    // its charge itself; a waiting charge of a canceled subscription found anyway is canceled here.
    if (subscription.status === "canceled" && charge.status !== "uncollectible") {
      const canceled = await cancelOrphanedCharge(ctx, charge.id);
      return skipped(charge.id, canceled ? "settled" : "claimed_elsewhere");
    }
    // Decrypted before the attempt is recorded: a key problem must not leave an attempt behind.
    prepared = {
      snapshot,
      send: {
        cardToken: ctx.vault.decrypt(paymentMethod.sealed),
        kind: paymentMethod.kind,
        amount: { minor: charge.amountMinor, currency: charge.currency },
        paymentMethodId: paymentMethod.id,
      },
    };
    return null;
  });
  return prepared;
}

/**
 * A recurring token is charged, by the gateway, the amount it was enrolled for and no other
 * (GetnewPayment takes no amount for it). The services refuse every change that would make a
 * charge differ from it (plan changes, coupons, credit); should one differ anyway, the card cannot
 * pay it and is not called: the wrong amount would be taken.
 */
function wrongRecurringAmount(
  card: NonNullable<ChargeSnapshot["paymentMethod"]>,
  charge: ChargeSnapshot["charge"],
): string | null {
  if (card.kind !== "recurring" || card.amountMinor === null || card.amountMinor === charge.amountMinor)
    return null;
  return `recurring card token for ${card.amountMinor} minor units cannot pay a charge of ${charge.amountMinor}`;
}

/** Runs one charge's step; its result or its error is that charge's alone. */
async function guard(run: Run, chargeId: string, step: () => Promise<ChargeResult | null>) {
  try {
    const result = await step();
    if (result) run.sink.results.set(chargeId, result);
  } catch (error) {
    run.sink.failures.set(chargeId, error);
  }
}
