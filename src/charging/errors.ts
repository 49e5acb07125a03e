import type { ChargeState } from "../billing/index.js";

/** The job names a charge that does not exist: no retry can help. */
export class ChargeNotFoundError extends Error {
  override name = "ChargeNotFoundError";

  constructor(readonly chargeId: string) {
    super(`charge ${chargeId} does not exist`);
  }
}

/**
 * An operator asked to reconcile a charge that is not held for review with an attempt whose outcome
 * stayed unknown (reconcileHeldCharge): it is in another state, or under review for another reason.
 */
export class ChargeNotHeldError extends Error {
  override name = "ChargeNotHeldError";

  constructor(
    readonly chargeId: string,
    /** The charge's status when it was refused; null when another settlement raced ahead. */
    readonly chargeStatus: ChargeState | null,
    readonly why: string,
  ) {
    super(`charge ${chargeId} is not held for review with an unknown outcome: ${why}`);
  }
}

/**
 * Thrown by processCharge when the charge cannot be finished now but a later run will finish it.
 * The charge job lets it escape so BullMQ retries with exponential backoff and jitter; Postgres
 * already holds whatever a retry needs (the attempt row, its orderId, its reconcile count).
 */
export class ChargeRetryLaterError extends Error {
  override name = "ChargeRetryLaterError";

  constructor(
    readonly chargeId: string,
    /** The attempt number of the charge job that carries on (job id `charge-<id>-<n>`). */
    readonly jobAttempt: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The gateway may or may not have charged the card (timeout, 5xx, dropped reply, or a status check
 * that did not answer yet). The attempt stays open (unknown); the retry asks CheckStatus about its
 * orderId before anything else is sent.
 */
export class ChargeOutcomeUnknownError extends ChargeRetryLaterError {
  override name = "ChargeOutcomeUnknownError";

  constructor(
    chargeId: string,
    readonly attemptNumber: number,
    readonly orderId: string,
    readonly why: string,
  ) {
    super(
      chargeId,
      attemptNumber,
      `outcome of ${orderId} is unknown (${why}); it will be reconciled before any retry`,
    );
  }
}

/** The charge's attempt was sent moments ago and its worker may still be waiting for the gateway. */
export class AttemptInFlightError extends ChargeRetryLaterError {
  override name = "AttemptInFlightError";

  constructor(chargeId: string, attemptNumber: number, orderId: string) {
    super(chargeId, attemptNumber, `${orderId} is still in flight in another worker; its outcome is awaited`);
  }
}

/**
 * The charge's last attempt was stored as declined without the gateway's transaction id, and
 * CheckStatus cannot settle it yet (it failed, the payment is PENDING, or "not found" came too
 * soon): it may have been paid, so no new attempt is sent. The charge stays due; the retry asks
 * CheckStatus again first (verify-decline.ts).
 */
export class DeclineUnverifiedError extends ChargeRetryLaterError {
  override name = "DeclineUnverifiedError";

  constructor(
    chargeId: string,
    readonly attemptNumber: number,
    readonly orderId: string,
    readonly why: string,
  ) {
    super(
      chargeId,
      attemptNumber + 1,
      `the decline of ${orderId} carried no transaction id and CheckStatus cannot settle it yet (${why}); ` +
        "no new attempt is sent until it does",
    );
  }
}

/** The gateway refused the request before processing it (429, or no connection): nothing moved. */
export class GatewayNotReachedError extends ChargeRetryLaterError {
  override name = "GatewayNotReachedError";

  constructor(chargeId: string, attemptNumber: number, description: string) {
    super(
      chargeId,
      attemptNumber + 1,
      `the gateway did not take attempt ${attemptNumber} (${description}); the charge is due again now`,
    );
  }
}

/**
 * Some charges of a batch job must be tried again (each one's error is kept). The job throws it so
 * BullMQ retries the batch with backoff; the retry reconciles before it sends anything.
 */
export class ChargeBatchRetryError extends Error {
  override name = "ChargeBatchRetryError";

  constructor(readonly failures: readonly (readonly [chargeId: string, error: unknown])[]) {
    const first = failures[0];
    const why = first?.[1] instanceof Error ? first[1].message : String(first?.[1]);
    super(`${failures.length} charge(s) of the batch to try again, e.g. ${first?.[0]}: ${why}`);
  }
}

/**
 * The gateway answered in a way that looks systemic (a card refused with -7, an authentication
 * refusal) while the circuit breaker is open: the attempt was released, nothing was condemned, and
 * the charge waits, due, until an operator resumes collection.
 */
export class CollectionPausedError extends Error {
  override name = "CollectionPausedError";

  constructor(
    readonly chargeId: string,
    readonly why: string,
  ) {
    super(`charge ${chargeId} is held: the gateway circuit breaker is open (${why})`);
  }
}
