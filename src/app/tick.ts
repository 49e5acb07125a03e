import { performance } from "node:perf_hooks";
import { type EngineContext, refreshClock } from "../context/index.js";
import { newCardLink } from "../http/index.js";
import { sendPaymentRecords } from "../invoicing/index.js";
import { dispatchDueMessages, messageEnqueuer } from "../messages/index.js";
import { recordTickRun } from "../metrics/index.js";
import { recordUpcomingNotices } from "../notices/index.js";
import { BILLING_TICK, recordTickEnd, recordTickStart, runBillingTick } from "../scheduler/index.js";
import { dispatchDueWebhooks, notifyExpiringPaymentMethods, webhookEnqueuer } from "../webhooks/index.js";
import { engineMessages } from "./messages.js";

/** Due webhook deliveries found again from the database per tick; more wait for the next one. */
const WEBHOOK_DISPATCH_LIMIT = 500;
/** Due customer messages, likewise. */
const MESSAGE_DISPATCH_LIMIT = 500;
/** Paid charges recorded at the gateway per tick, one call each; more wait for the next tick. */
const PAYMENT_RECORD_LIMIT = 50;

/**
 * One tick: billing work, then the webhook deliveries and customer messages that came due (found
 * again from Postgres, so a lost job or a Redis wipe only delays them), then the notices for cards
 * about to expire and the notices before money moves (a trial's end, a renewal), then the paid
 * charges to record as paid invoices in the gateway account, unless the circuit breaker stopped
 * the gateway's use.
 * Its start and end are recorded in tick_runs, so any process can tell a tick that stalled, and
 * then counted in this process's billing_tick_runs_total and billing_tick_duration_seconds.
 */
export async function runTick(ctx: EngineContext) {
  const sql = ctx.db.$client;
  await recordTickStart(sql, BILLING_TICK);
  const started = performance.now();
  try {
    const result = await tickSteps(ctx);
    const durationMs = performance.now() - started;
    const outcome = result.paused ? "paused" : "ok";
    await recordTickEnd(sql, BILLING_TICK, { outcome, durationMs });
    recordTickRun(outcome, durationMs / 1000);
    return { ...result, durationMs };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const durationMs = performance.now() - started;
    await recordTickEnd(sql, BILLING_TICK, { outcome: "failed", durationMs, error: message }).catch(
      () => undefined, // the database may be what failed; the tick's own error is thrown
    );
    recordTickRun("failed", durationMs / 1000);
    throw error;
  }
}

async function tickSteps(ctx: EngineContext) {
  await refreshClock(ctx.clock);
  const billing = await runBillingTick(ctx, { batchSize: ctx.config.BILLING_BATCH_SIZE });
  const webhooks = await dispatchDueWebhooks(ctx, {
    limit: WEBHOOK_DISPATCH_LIMIT,
    enqueue: webhookEnqueuer(ctx.queues),
  });
  const messages = await dispatchDueMessages(engineMessages(ctx), {
    limit: MESSAGE_DISPATCH_LIMIT,
    enqueue: messageEnqueuer(ctx.queues),
  });
  const expiring = await notifyExpiringPaymentMethods(ctx, {
    newCardLink: (subscriptionId) => newCardLink(ctx, subscriptionId, ctx.clock.now()),
  });
  const notices = await recordUpcomingNotices(ctx, {
    now: ctx.clock.now(),
    renewalDays: ctx.config.RENEWAL_NOTICE_DAYS,
    trialDays: ctx.config.TRIAL_ENDING_NOTICE_DAYS,
    limit: ctx.config.BILLING_BATCH_SIZE,
  });
  const records = billing.paused
    ? { created: 0, retrying: 0, failed: 0 }
    : await sendPaymentRecords(ctx, { limit: PAYMENT_RECORD_LIMIT });
  return {
    ...billing,
    webhooksDispatched: webhooks.deliveryIds.length,
    messagesDispatched: messages.messageIds.length,
    expiringNotices: expiring.length,
    trialEndingNotices: notices.trialEnding,
    renewalNotices: notices.renewalUpcoming,
    paymentsRecorded: records.created,
  };
}
