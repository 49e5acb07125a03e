import {
  AttemptInFlightError,
  ChargeOutcomeUnknownError,
  type ChargeResult,
  ChargeRetryLaterError,
  ensureChargeJob,
  GatewayNotReachedError,
  processCharge,
} from "../charging/index.js";
import { type EngineContext, refreshClock } from "../context/index.js";

/**
 * Collects one charge now, outside the queue (an operator's "retry now", a dunning run). Forced: a
 * retrying charge goes before its scheduled time, and an uncollectible one is collected again
 * (e.g. on a card saved since). Everything else is processCharge's: an open attempt is reconciled
 * first, a settled or reviewed charge is left alone, and a card is never charged twice.
 *
 * When the charge cannot finish now (outcome unknown, an attempt still in flight, the gateway not
 * reached) the answer is `pending`, with which of the three it is, and the charge job is made sure
 * to exist, delayed by the queue's backoff, so BullMQ carries on reconciling it.
 */
export type RetryNowResult =
  | ChargeResult
  | {
      readonly kind: "pending";
      readonly chargeId: string;
      readonly unknownOutcome: boolean;
      /**
       * outcome_unknown: this call's attempt (or the one it reconciled) may have moved money;
       * in_flight_elsewhere: another worker's attempt is still waiting for the gateway, so this call
       * sent nothing; gateway_not_reached: the gateway took nothing, the charge is due again.
       */
      readonly reason: PendingReason;
      readonly why: string;
    };

export type PendingReason = "outcome_unknown" | "in_flight_elsewhere" | "gateway_not_reached";

/** Any other reason to retry later reads as unknown: the one answer that never hides a payment. */
function pendingReason(error: ChargeRetryLaterError): PendingReason {
  if (error instanceof AttemptInFlightError) return "in_flight_elsewhere";
  if (error instanceof GatewayNotReachedError) return "gateway_not_reached";
  return "outcome_unknown";
}

export async function retryChargeNow(ctx: EngineContext, chargeId: string): Promise<RetryNowResult> {
  try {
    await refreshClock(ctx.clock);
    return await processCharge(ctx, chargeId, { force: true });
  } catch (error) {
    if (!(error instanceof ChargeRetryLaterError)) throw error;
    const unknownOutcome = error instanceof ChargeOutcomeUnknownError;
    await ensureChargeJob(ctx.queues, chargeId, error.jobAttempt, {
      delayMs: ctx.config.QUEUE_BACKOFF_MS,
    }).catch((err: unknown) =>
      ctx.logger.warn({ err, chargeId }, "could not enqueue the charge; the tick will"),
    );
    return { kind: "pending", chargeId, unknownOutcome, reason: pendingReason(error), why: error.message };
  }
}
