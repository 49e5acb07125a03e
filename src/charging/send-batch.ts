import type { EngineContext } from "../context/index.js";
import type { Money } from "../money/index.js";
import { callGateway } from "./call-gateway.js";
import type { RecordedAttempt } from "./claim-batch.js";
import { ChargeOutcomeUnknownError, GatewayNotReachedError } from "./errors.js";
import type { GatewayLimiter } from "./gateway-limiter.js";
import type { GatewayReport } from "./gateway-report.js";
import { markAttemptUnknown } from "./mark-attempt-unknown.js";
import type { OutcomeFlusher } from "./outcome-flusher.js";
import { releaseAttempt } from "./release-attempt.js";
import type { ChargeResult } from "./result.js";
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
 * | rejected       |                                                                |                      |
 * | unknown        | the attempt is marked unknown, to be reconciled                | ChargeOutcomeUnknown |
 * | not_sent       | the attempt is released (no money moved), due again at once    | GatewayNotReached    |
 * | token_unusable | the attempt is released and the card marked unusable           | sent round again     |
 *
 * Each charge is on its own: one failing (a reply that cannot be recorded) fails only that charge.
 * Charges whose card the gateway refused with -7 are returned, for the unusable-card path.
 */
export interface SendableAttempt {
  readonly attempt: RecordedAttempt;
  readonly cardToken: string;
  readonly kind: "recurring" | "autosave";
  readonly amount: Money;
  readonly paymentMethodId: string;
}

export interface BatchSink {
  readonly results: Map<string, ChargeResult>;
  readonly failures: Map<string, unknown>;
}

const ACTOR = "gateway";

export async function sendBatch(
  ctx: EngineContext,
  sends: readonly SendableAttempt[],
  via: { readonly limiter: GatewayLimiter; readonly flusher: OutcomeFlusher<OutcomeInput, ChargeResult> },
  sink: BatchSink,
): Promise<string[]> {
  const refused: string[] = [];
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
        const routed = await route(ctx, send, report, via.flusher);
        if (routed === "refused") refused.push(chargeId);
        else sink.results.set(chargeId, routed);
      } catch (error) {
        sink.failures.set(chargeId, error);
      }
    }),
  );
  return refused;
}

async function route(
  ctx: EngineContext,
  send: SendableAttempt,
  report: GatewayReport,
  flusher: OutcomeFlusher<OutcomeInput, ChargeResult>,
): Promise<ChargeResult | "refused"> {
  const { attempt } = send;
  const release = {
    chargeId: attempt.chargeId,
    attemptId: attempt.id,
    attemptNumber: attempt.attemptNumber,
    actor: ACTOR,
  };
  switch (report.kind) {
    case "approved":
    case "declined":
    case "rejected":
      return flusher.add({ chargeId: attempt.chargeId, attempt, report, actor: ACTOR });
    case "unknown":
      await markAttemptUnknown(ctx, {
        ...release,
        orderId: attempt.orderId,
        why: report.description,
        countTry: false,
      });
      throw new ChargeOutcomeUnknownError(
        attempt.chargeId,
        attempt.attemptNumber,
        attempt.orderId,
        report.description,
      );
    case "not_sent":
      await releaseAttempt(ctx, { ...release, code: "not_sent", description: report.description });
      throw new GatewayNotReachedError(attempt.chargeId, attempt.attemptNumber, report.description);
    case "token_unusable":
      await releaseAttempt(ctx, {
        ...release,
        code: report.code,
        description: report.description,
        unusablePaymentMethodId: send.paymentMethodId,
      });
      return "refused";
  }
}
