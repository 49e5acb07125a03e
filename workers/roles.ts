import { type EngineContext, refreshClock } from "../src/app/index.js";
import { startTokenDeactivationWorker } from "../src/cancellation/index.js";
import { startChargeWorker } from "../src/charging/index.js";
import { newCardLink } from "../src/http/index.js";
import { startInvoiceWorker } from "../src/invoicing/index.js";
import { QUEUE_NAMES } from "../src/queue/index.js";
import { registerBillingTick, runBillingTick } from "../src/scheduler/index.js";
import {
  dispatchDueWebhooks,
  notifyExpiringPaymentMethods,
  webhookEnqueuer,
  webhookJobProcessor,
} from "../src/webhooks/index.js";
import type { Role } from "./run.js";

/**
 * What each worker process runs, in one place so the single-process entry (all.ts) and the
 * per-role entries start exactly the same things.
 */

/** Due webhook deliveries found again from the database per tick; more wait for the next one. */
const WEBHOOK_DISPATCH_LIMIT = 500;

/**
 * One tick: billing work, then the webhook deliveries that came due (found again from Postgres,
 * so a lost job or a Redis wipe only delays them), then the notices for cards about to expire.
 */
export async function runTick(ctx: EngineContext) {
  await refreshClock(ctx.clock);
  const billing = await runBillingTick(ctx, { batchSize: ctx.config.BILLING_BATCH_SIZE });
  const webhooks = await dispatchDueWebhooks(ctx, {
    limit: WEBHOOK_DISPATCH_LIMIT,
    enqueue: webhookEnqueuer(ctx.queues),
  });
  const expiring = await notifyExpiringPaymentMethods(ctx, {
    newCardLink: (subscriptionId) => newCardLink(ctx, subscriptionId, ctx.clock.now()),
  });
  return { ...billing, webhooksDispatched: webhooks.deliveryIds.length, expiringNotices: expiring.length };
}

/**
 * Registers the repeating billing tick (one scheduler per id, whoever registers it) and runs the
 * ticks one at a time, each on the shared billing clock as the database holds it at its start.
 */
export const scheduler: Role = async (ctx: EngineContext) => {
  await registerBillingTick(ctx, { everySeconds: ctx.config.BILLING_TICK_SECONDS });
  ctx.queues.worker(QUEUE_NAMES.billingTick, () => runTick(ctx), { concurrency: 1 });
};

export const charges: Role = (ctx) =>
  startChargeWorker(ctx, {
    concurrency: ctx.config.CHARGE_CONCURRENCY,
    ratePerSecond: ctx.config.CHARGE_RATE_PER_SECOND,
  });

export const invoices: Role = (ctx) => startInvoiceWorker(ctx);

export const tokens: Role = (ctx) => startTokenDeactivationWorker(ctx);

export const webhooks: Role = (ctx) =>
  ctx.queues.worker(QUEUE_NAMES.webhooks, webhookJobProcessor(ctx, ctx.queues), { concurrency: 8 });
