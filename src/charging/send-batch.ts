import { recordGatewaySignal } from "../breaker/index.js";
import type { EngineContext } from "../context/index.js";
import { countChargeAttempt } from "../metrics/index.js";
import type { Money } from "../money/index.js";
import { callGateway } from "./call-gateway.js";
import type { RecordedAttempt } from "./claim-batch.js";
import { ChargeOutcomeUnknownError, CollectionPausedError, GatewayNotReachedError } from "./errors.js";
import type { GatewayLimiter } from "./gateway-limiter.js";
import { type GatewayReport, TOKEN_NOT_FOUND_CODE } from "./gateway-report.js";
import { markAttemptUnknown } from "./mark-attempt-unknown.js";
import type { OutcomeFlusher } from "./outcome-flusher.js";
import { releaseAttempt } from "./release-attempt.js";
import { type ChargeResult, skipped } from "./result.js";
import type { OutcomeInput } from "./settle-batch.js";

/**
 * Rule: a claimed wave (its attempts committed, one gateway call taken from the process's limiter
 * for each before the claim) is sent to GetnewPayment at once, concurrently, and each reply is
 * routed the moment it arrives; each call is given back to the limiter when it returns:
 *
 * | report         | what happens                                                   | charge result        |
 * |----------------|----------------------------------------------------------------|----------------------|
 * | approved,      | recorded with the others that finish together (the flusher,    | its outcome          |
 * | declined,      | settle-batch.ts)                                               |                      |
 * | rejected       | (-1, unauthorized: released like not_sent, it is about our key)|                      |
 * | unknown        | the attempt is marked unknown, to be reconciled                | ChargeOutcomeUnknown |
 * | not_sent       | the attempt is released (no money moved), due again at once    | GatewayNotReached    |
 * | throttled      | (429) released the same way, and the limiter slows down; the   | sent round again     |
 * |                | job sends it again once the limiter lets it (no failed job)    |                      |
 * | token_unusable | first -7 for the card: released, due again after                | skipped              |
 * |                | TOKEN_REFUSAL_CONFIRM_SECONDS; the next one: released, and the |                      |
 * |                | card marked unusable                                           | sent round again     |
 *
 * A -7 and an authentication refusal (-1, -8) are also signs of a systemic failure (a gateway that
 * lost its state, a wrong key or environment): each is recorded with the circuit breaker
 * (breaker/), and once it is open the attempt is only released and the charge held
 * (CollectionPausedError), so no card is retired and no charge condemned for the gateway's fault.
 *
 * Each charge is on its own: one failing (a reply that cannot be recorded) fails only that charge.
 * Charges whose card the gateway refused with -7 are returned, for the unusable-card path, and
 * those it refused as too many requests, to be sent again.
 */
export interface SendableAttempt {
  readonly attempt: RecordedAttempt;
  readonly cardToken: string;
  readonly kind: "recurring" | "autosave";
  readonly amount: Money;
  readonly paymentMethodId: string;
}

export interface SentRound {
  /** Refused with -7: their card is now unusable. */
  readonly refused: string[];
  /** Refused with 429: released, due again. */
  readonly throttled: string[];
}

export interface BatchSink {
  readonly results: Map<string, ChargeResult>;
  readonly failures: Map<string, unknown>;
}

const ACTOR = "gateway";

/** -1 unauthorized (API key), -8 invalid token format: about the account, or every token at once. */
const AUTH_REFUSALS = new Set(["-1", "-8"]);
const UNAUTHORIZED = "-1";

export async function sendBatch(
  ctx: EngineContext,
  sends: readonly SendableAttempt[],
  via: { readonly limiter: GatewayLimiter; readonly flusher: OutcomeFlusher<OutcomeInput, ChargeResult> },
  sink: BatchSink,
): Promise<SentRound> {
  const round: SentRound = { refused: [], throttled: [] };
  await Promise.all(
    sends.map(async (send) => {
      const { chargeId } = send.attempt;
      try {
        let report: GatewayReport;
        try {
          report = await callGateway(ctx, {
            cardToken: send.cardToken,
            kind: send.kind,
            orderId: send.attempt.orderId,
            amount: send.amount,
          });
        } finally {
          via.limiter.give(1);
        }
        if (report.kind === "throttled") via.limiter.throttled();
        const routed = await route(ctx, send, report, via.flusher);
        if (routed === "refused" || routed === "throttled") round[routed].push(chargeId);
        else sink.results.set(chargeId, routed);
      } catch (error) {
        sink.failures.set(chargeId, error);
      }
    }),
  );
  return round;
}

async function route(
  ctx: EngineContext,
  send: SendableAttempt,
  report: GatewayReport,
  flusher: OutcomeFlusher<OutcomeInput, ChargeResult>,
): Promise<ChargeResult | "refused" | "throttled"> {
  const { attempt } = send;
  const release = {
    chargeId: attempt.chargeId,
    attemptId: attempt.id,
    attemptNumber: attempt.attemptNumber,
    actor: ACTOR,
  };
  switch (report.kind) {
    case "rejected":
      if (AUTH_REFUSALS.has(report.code)) {
        const { paused } = await recordGatewaySignal(ctx, "auth_refused", attempt.id);
        if (paused) return hold(ctx, release, report);
        // Our key, not this charge: nothing was processed, so the charge is due again later.
        if (report.code === UNAUTHORIZED) return notSent(ctx, release, report.code, report.description);
      }
      return flusher.add({ chargeId: attempt.chargeId, attempt, report, actor: ACTOR });
    case "approved":
    case "declined":
      return flusher.add({ chargeId: attempt.chargeId, attempt, report, actor: ACTOR });
    case "unknown": {
      const marked = await markAttemptUnknown(ctx, {
        ...release,
        orderId: attempt.orderId,
        why: report.description,
        countTry: false,
      });
      if (marked) countChargeAttempt("unknown");
      throw new ChargeOutcomeUnknownError(
        attempt.chargeId,
        attempt.attemptNumber,
        attempt.orderId,
        report.description,
      );
    }
    case "not_sent":
      return notSent(ctx, release, "not_sent", report.description);
    case "throttled":
      // The gateway refused before processing: no money moved, and no dunning attempt is counted.
      await releaseAttempt(ctx, { ...release, code: "429", description: report.description });
      return "throttled";
    case "token_unusable": {
      const { paused } = await recordGatewaySignal(ctx, "token_refused", send.paymentMethodId);
      if (paused) return hold(ctx, release, report);
      const confirmAfter = ctx.config.TOKEN_REFUSAL_CONFIRM_SECONDS;
      if (confirmAfter > 0 && !(await refusedBefore(ctx, send))) {
        // A gateway that lost its state refuses every card at once; the breaker needs a few of
        // them to tell. So a card is retired only when it is refused again, later.
        await releaseAttempt(ctx, {
          ...release,
          code: report.code,
          description: `${report.description} (asked again before the card is retired)`,
          dueAfterSeconds: confirmAfter,
        });
        return skipped(attempt.chargeId, "card_refused_once");
      }
      await releaseAttempt(ctx, {
        ...release,
        code: report.code,
        description: report.description,
        unusablePaymentMethodId: send.paymentMethodId,
      });
      return "refused";
    }
  }
}

type Release = { chargeId: string; attemptId: string; attemptNumber: number; actor: string };

/** The gateway took nothing: the attempt is released and the charge is due again (BullMQ retries). */
async function notSent(
  ctx: EngineContext,
  release: Release,
  code: string,
  description: string,
): Promise<never> {
  await releaseAttempt(ctx, { ...release, code, description });
  throw new GatewayNotReachedError(release.chargeId, release.attemptNumber, description);
}

/**
 * With the breaker open, a refusal is not about this card or charge: the attempt is released (no
 * money moved), the card is left usable, and the charge waits, due, for collection to resume.
 */
async function hold(
  ctx: EngineContext,
  release: Release,
  report: { code: string; description: string },
): Promise<never> {
  await releaseAttempt(ctx, {
    ...release,
    code: report.code,
    description: `${report.description} (held: the gateway circuit breaker is open)`,
  });
  throw new CollectionPausedError(release.chargeId, `${report.code}: ${report.description}`);
}

/** Whether this card was already refused with -7 for this charge (an earlier attempt released so). */
async function refusedBefore(ctx: EngineContext, send: SendableAttempt): Promise<boolean> {
  const [row] = await ctx.db.$client`
    select 1 from charge_attempts a join payment_methods m on m.id = ${send.paymentMethodId}::uuid
    where a.charge_id = ${send.attempt.chargeId}::uuid and a.id <> ${send.attempt.id}::uuid
      and a.decline_code = ${String(TOKEN_NOT_FOUND_CODE)} and a.created_at >= m.created_at
    limit 1`;
  return row !== undefined;
}
