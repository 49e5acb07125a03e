import { type EngineContext, refreshClock } from "../context/index.js";
import { type BillingWorker, QUEUE_NAMES } from "../queue/index.js";
import { runBillingTick, type TickOptions } from "./tick.js";

/**
 * The billing tick on BullMQ: a job scheduler adds a `billing-tick` job every `everySeconds`
 * (BILLING_TICK_SECONDS), and a tick worker runs runBillingTick for each. Upserting the scheduler
 * from every process at boot is safe (one scheduler per id), and so is a Redis wipe: the next boot
 * upserts it again, and nothing else lives in Redis that Postgres does not also know. A wipe while
 * the scheduler process runs would stop the ticks, though, so that process also checks every tick
 * period that the scheduler is still there and puts it back if not (keepBillingTick).
 */
export const BILLING_TICK_SCHEDULER_ID = "billing-tick";

export async function registerBillingTick(
  ctx: Pick<EngineContext, "queues">,
  options: { everySeconds: number },
): Promise<void> {
  const { everySeconds } = options;
  if (!Number.isFinite(everySeconds) || everySeconds <= 0) {
    throw new RangeError(`everySeconds must be positive, got ${everySeconds}`);
  }
  await ctx.queues.upsertScheduler(
    QUEUE_NAMES.billingTick,
    BILLING_TICK_SCHEDULER_ID,
    { everyMs: Math.round(everySeconds * 1000) },
    { data: {} },
  );
}

/**
 * Runs the ticks: one at a time per process (concurrent ticks elsewhere split the rows with SKIP
 * LOCKED), each reading a shared billing clock fresh first.
 */
export function startTickWorker(ctx: EngineContext, options: TickOptions = {}): BillingWorker {
  return ctx.queues.worker(
    QUEUE_NAMES.billingTick,
    async () => {
      await refreshClock(ctx.clock);
      return runBillingTick(ctx, options);
    },
    { concurrency: 1 },
  );
}

/**
 * Puts the billing tick's scheduler back whenever it has gone (Redis wiped or restarted without
 * persistence) while this process runs: a check per tick period, one Redis read. Returns a stop
 * function for shutdown.
 */
export function keepBillingTick(
  ctx: Pick<EngineContext, "queues" | "logger">,
  options: { everySeconds: number },
): () => void {
  const check = async () => {
    const queue = ctx.queues.queue(QUEUE_NAMES.billingTick);
    if (await queue.getJobScheduler(BILLING_TICK_SCHEDULER_ID)) return;
    ctx.logger.warn(
      { component: "scheduler" },
      "the billing tick's scheduler was gone (Redis lost it); restored",
    );
    await registerBillingTick(ctx, options);
  };
  const timer = setInterval(() => {
    check().catch((err: unknown) =>
      ctx.logger.error({ err, component: "scheduler" }, "could not check the billing tick's scheduler"),
    );
  }, options.everySeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
