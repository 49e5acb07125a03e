import { UnrecoverableError } from "bullmq";
import { type EngineContext, refreshClock } from "../app/index.js";
import {
  type BillingWorker,
  chargeJobId,
  enqueueCharge,
  QUEUE_NAMES,
  type QueueSource,
} from "../queue/index.js";
import { ChargeNotFoundError } from "./errors.js";
import { processCharge } from "./process-charge.js";

/**
 * The charge queue: jobs carry only `{ chargeId }` under the id `charge-<charge id>-<attempt>`, and
 * the charge row in Postgres says what to do. A job is a hint; losing it (Redis wiped) loses
 * nothing, because the scheduler tick finds the charge again from the database.
 */

/**
 * Makes sure a job for this charge attempt exists, and says whether one was added. A job of that id
 * still waiting, delayed, active or retrying is left alone. A FAILED one is removed first: it ran
 * out of BullMQ retries, BullMQ keeps it (and its id) for a week, and re-adding the id would be a
 * silent no-op that strands work Postgres says is due. That is safe because the charge job always
 * reconciles an open attempt before anything else, so a fresh run cannot charge blindly.
 */
export async function ensureChargeJob(
  queues: QueueSource,
  chargeId: string,
  attempt: number,
  options: { delayMs?: number } = {},
): Promise<boolean> {
  const queue = queues.queue(QUEUE_NAMES.charges);
  const jobId = chargeJobId(chargeId, attempt);
  const state = await queue.getJobState(jobId);
  if (state === "failed") await queue.remove(jobId);
  else if (state !== "unknown") return false;
  await enqueueCharge(queues, { chargeId }, { attempt, ...options });
  return true;
}

export interface ChargeWorkerOptions {
  /** Jobs run at once in this process (CHARGE_CONCURRENCY). */
  concurrency: number;
  /** At most this many charges per second toward the gateway, across all workers (CHARGE_RATE_PER_SECOND). */
  ratePerSecond: number;
  /** See quiet-period.ts; defaults to defaultQuietPeriodMs(ctx.config). */
  quietPeriodMs?: number;
}

/**
 * The charge worker: a thin job around processCharge, reading a shared billing clock fresh first
 * (one job, one instant). Errors escape so BullMQ retries with the
 * queue's exponential backoff and jitter (unknown outcomes, gateway not reached, an attempt still
 * in flight elsewhere); only a charge that does not exist fails at once.
 */
export function startChargeWorker(ctx: EngineContext, options: ChargeWorkerOptions): BillingWorker {
  const quiet = options.quietPeriodMs === undefined ? {} : { quietPeriodMs: options.quietPeriodMs };
  return ctx.queues.worker(
    QUEUE_NAMES.charges,
    async ({ chargeIds }) => {
      const [chargeId] = chargeIds as [string];
      try {
        await refreshClock(ctx.clock);
        return await processCharge(ctx, chargeId, quiet);
      } catch (error) {
        if (error instanceof ChargeNotFoundError) throw new UnrecoverableError(error.message);
        throw error;
      }
    },
    { concurrency: options.concurrency, limiter: { max: options.ratePerSecond, duration: 1000 } },
  );
}
