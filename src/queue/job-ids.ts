/*
 * Job ids are derived from domain ids so that enqueuing the same work twice is a no-op: BullMQ keeps
 * one job per id and ignores a second add while the first still exists.
 *
 * The separator is "-": BullMQ (job.js, validateOptions) rejects custom ids that contain ":" unless
 * they split into exactly three parts, because it reserves that shape for its own repeat-job ids,
 * and it rejects ids that parse as integers. "-" is legal in Redis keys and in the Postgres backend's
 * text id column, and never collides with either reserved shape.
 *
 * Completed jobs are removed at once (see job-options.ts), so an id only dedupes work that is still
 * waiting, delayed, active or retrying; after completion the same id can be enqueued again.
 */

export function chargeJobId(chargeId: string, attempt: number): string {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`charge attempt must be a whole number from 1, got ${attempt}`);
  }
  // The dunning attempt is part of the id: a charge whose BullMQ retries ran out leaves a retained
  // failed job under its id, and that job must not block the next dunning attempt days later.
  return `charge-${chargeId}-${attempt}`;
}

export function invoiceJobId(chargeId: string): string {
  return `invoice-${chargeId}`;
}

export function tokenDeactivationJobId(paymentMethodId: string): string {
  return `token-deactivation-${paymentMethodId}`;
}

export function webhookJobId(deliveryId: string): string {
  return `webhook-${deliveryId}`;
}

export function messageJobId(messageId: string): string {
  return `message-${messageId}`;
}

/** One job per status check: while one waits or runs, the tick's next hand-out is a no-op. */
export function statusCheckJobId(check: string): string {
  return `status-check-${check}`;
}
