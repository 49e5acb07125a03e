import { engineMessages, runTick } from "../app/index.js";
import { startTokenDeactivationWorker } from "../cancellation/index.js";
import { startChargeWorker } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { startInvoiceWorker } from "../invoicing/index.js";
import { messageJobProcessor } from "../messages/index.js";
import { type BillingWorker, QUEUE_NAMES } from "../queue/index.js";
import { keepBillingTick, registerBillingTick, startStatusCheckWorker } from "../scheduler/index.js";
import { webhookJobProcessor } from "../webhooks/index.js";

/**
 * What each worker process runs, in one place so the single-process entries (workers/all.ts,
 * `npm start`) and the per-role entries (workers/*.ts) start exactly the same things. Each role is
 * one BullMQ worker, which is what `npm start`'s supervisor watches and restarts (worker-role.ts).
 */
export type Role = (ctx: EngineContext) => BillingWorker | Promise<BillingWorker>;

/**
 * Registers the repeating billing tick (one scheduler per id, whoever registers it), keeps it there
 * if Redis loses it, and runs the ticks one at a time with `tick`, each on the shared billing clock
 * as the database holds it at its start. `npm start` passes one that runs them in a thread of their
 * own (tick-thread.ts); closing the worker lets the tick in hand finish.
 */
export function tickScheduler(tick: (ctx: EngineContext) => Promise<unknown>): Role {
  return async (ctx) => {
    const every = { everySeconds: ctx.config.BILLING_TICK_SECONDS };
    await registerBillingTick(ctx, every);
    const stopKeeping = keepBillingTick(ctx, every);
    const worker = ctx.queues.worker(QUEUE_NAMES.billingTick, () => tick(ctx), { concurrency: 1 });
    worker.on("closed", stopKeeping);
    return worker;
  };
}

/** The scheduler that runs each tick inline, on this event loop. */
export const scheduler: Role = tickScheduler(runTick);

/**
 * The status checks the tick hands out (scheduler/status-checks.ts). Every process that runs the
 * scheduler runs this role too, so wherever ticks run their refunds, late payments and enrolments
 * are settled, without a gateway call ever holding up a tick.
 */
export const statusChecks: Role = (ctx) => startStatusCheckWorker(ctx);

export const charges: Role = (ctx) =>
  startChargeWorker(ctx, {
    concurrency: ctx.config.CHARGE_CONCURRENCY,
    ratePerSecond: ctx.config.CHARGE_RATE_PER_SECOND,
  });

export const invoices: Role = (ctx) => startInvoiceWorker(ctx);

export const tokens: Role = (ctx) => startTokenDeactivationWorker(ctx);

export const webhooks: Role = (ctx) =>
  ctx.queues.worker(QUEUE_NAMES.webhooks, webhookJobProcessor(ctx, ctx.queues), { concurrency: 8 });

/**
 * Customer messages, a few at a time through the process's one pooled SMTP connection set. The
 * queue system closes this worker before the transport, so a send in hand finishes and records
 * its outcome on a graceful stop.
 */
export const messages: Role = (ctx) =>
  ctx.queues.worker(QUEUE_NAMES.messages, messageJobProcessor(engineMessages(ctx), ctx.queues), {
    concurrency: 4,
  });
