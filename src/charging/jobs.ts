import { UnrecoverableError } from "bullmq";
import { type EngineContext, refreshClock } from "../context/index.js";
import {
  type BillingWorker,
  chargeJobId,
  enqueueCharge,
  makeWayForJob,
  QUEUE_NAMES,
  type QueueSource,
} from "../queue/index.js";
import { ChargeBatchRetryError, ChargeNotFoundError } from "./errors.js";
import { createChargeFlusher, processChargeBatch } from "./process-charge-batch.js";
import { processLimiter } from "./process-limiter.js";
import type { ChargeResult } from "./result.js";

/**
 * The charge queue: jobs carry a batch of charge ids (`{ chargeIds }`), and the charge rows in
 * Postgres say what to do. A job is a hint; losing it (Redis wiped) loses nothing, because the
 * scheduler tick finds the charges again from the database. An operator's retry of one charge
 * enqueues a batch of one under the id `charge-<charge id>-<attempt>`.
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
  if (!(await makeWayForJob(queues.queue(QUEUE_NAMES.charges), chargeJobId(chargeId, attempt)))) {
    return false;
  }
  await enqueueCharge(queues, { chargeId }, { attempt, ...options });
  return true;
}

export interface ChargeWorkerOptions {
  /** Batch jobs run at once in this process (CHARGE_CONCURRENCY). */
  concurrency: number;
  /** Gateway calls started per second by this process (CHARGE_RATE_PER_SECOND). */
  ratePerSecond: number;
  /** Gateway calls open at once in this process; default CHARGE_MAX_IN_FLIGHT. */
  maxInFlight?: number;
  /** See quiet-period.ts; defaults to defaultQuietPeriodMs(ctx.config). */
  quietPeriodMs?: number;
}

/**
 * The charge worker: a thin job around processChargeBatch, reading a shared billing clock fresh
 * first (one job, one instant). The process's gateway limiter (with the deployment's shared
 * budget, process-limiter.ts) and outcome flusher are shared by all its jobs. When any
 * charge of the batch must be tried again (an unknown outcome, the gateway not reached, an attempt
 * still in flight elsewhere, an error), the job throws so BullMQ retries the whole batch with the
 * queue's exponential backoff and jitter: the charges that finished are skipped by their state, and
 * the others reconcile first. Charges that do not exist are logged; a batch of nothing but those
 * fails at once.
 */
export function startChargeWorker(ctx: EngineContext, options: ChargeWorkerOptions): BillingWorker {
  const quiet = options.quietPeriodMs === undefined ? {} : { quietPeriodMs: options.quietPeriodMs };
  const maxInFlight = options.maxInFlight ?? ctx.config.CHARGE_MAX_IN_FLIGHT;
  const { limiter, close } = processLimiter(ctx, { maxInFlight, ratePerSecond: options.ratePerSecond });
  const flusher = createChargeFlusher(ctx, { flushMs: ctx.config.CHARGE_FLUSH_MS, maxGroup: maxInFlight });
  const worker = ctx.queues.worker(
    QUEUE_NAMES.charges,
    async ({ chargeIds }) => {
      await refreshClock(ctx.clock);
      const { results, failures } = await processChargeBatch(ctx, chargeIds, { ...quiet, limiter, flusher });
      const again = [...failures].filter(([, error]) => !(error instanceof ChargeNotFoundError));
      const missing = failures.size - again.length;
      if (missing > 0) {
        ctx.logger.warn({ chargeIds: [...failures.keys()] }, "charge job names charges that do not exist");
        if (missing === chargeIds.length)
          throw new UnrecoverableError(`none of the ${missing} charges exists`);
      }
      if (again.length > 0) throw new ChargeBatchRetryError(again);
      return summarise(results.values());
    },
    { concurrency: options.concurrency },
  );
  // The shared budget's connection closes with the worker, once its jobs are done.
  worker.on("closed", () => {
    close().catch((err: unknown) => ctx.logger.warn({ err }, "closing the shared gateway budget failed"));
  });
  return worker;
}

/** What the job returns (BullMQ keeps it for dashboards until the job is removed). */
function summarise(results: Iterable<ChargeResult>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const result of results) counts[result.kind] = (counts[result.kind] ?? 0) + 1;
  return counts;
}
