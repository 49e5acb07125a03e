import { exponentialBackoff } from "./backoff.js";

/**
 * When a customer message the SMTP server did not take (a 4xx reply, or no server answering) is
 * tried again: a minute after the first failure, doubling each time, never more than six hours
 * apart. With the default MESSAGE_MAX_ATTEMPTS (8) the last try comes some two hours after the
 * first, which outlasts a mail server's restart or a short outage; past that the message is failed
 * and stays in the mailbox to be resent. No jitter: the worker sends a few messages at a time
 * through one pooled connection, so retries that come due together do not stampede anything.
 */

export const MESSAGE_RETRY_BASE_MS = 60_000;
export const MESSAGE_RETRY_CAP_MS = 6 * 60 * 60 * 1000;

/** Milliseconds to wait after failed attempt number `attempt` (from 1). */
export function messageRetryDelay(attempt: number): number {
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be a whole number from 1, got ${attempt}`);
  }
  return exponentialBackoff({
    attempt: attempt - 1,
    baseMs: MESSAGE_RETRY_BASE_MS,
    capMs: MESSAGE_RETRY_CAP_MS,
    jitter: "none",
  });
}
