import { type EngineContext, refreshClock } from "../context/index.js";
import { newCardLink } from "../http/index.js";
import { runBillingTick } from "../scheduler/index.js";
import { dispatchDueWebhooks, notifyExpiringPaymentMethods, webhookEnqueuer } from "../webhooks/index.js";

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
