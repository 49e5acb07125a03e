import type { DefaultJobOptions } from "bullmq";

/** How BullMQ retries a job whose processor threw (e.g. a charge whose outcome is unknown). */
export interface RetryPolicy {
  /** Total tries, the first included. */
  attempts: number;
  /** Delay before the first retry; each later retry doubles it. */
  backoffMs: number;
  /** Fraction (0..1) of each delay that is randomised, so retries of a burst do not land together. */
  jitter: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 8, backoffMs: 5_000, jitter: 0.5 };

const WEEK_SECONDS = 7 * 24 * 60 * 60;

export function defaultJobOptions(policy: RetryPolicy): DefaultJobOptions {
  return {
    attempts: policy.attempts,
    backoff: { type: "exponential", delay: policy.backoffMs, jitter: policy.jitter },
    // The outcome of a job lives in Postgres, so a completed job record is worth nothing and would
    // keep its id taken: removing it lets the same id be enqueued again.
    removeOnComplete: true,
    // Failed jobs stay a week (bounded) for inspection. While kept, their id stays taken, which is
    // what we want for a charge attempt with an unknown outcome: it goes to reconciliation, not to a
    // blind re-dispatch by the next tick.
    removeOnFail: { age: WEEK_SECONDS, count: 5_000 },
  };
}
