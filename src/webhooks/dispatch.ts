import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { events, webhookDeliveries } from "../db/schema/index.js";
import { attachEventObjects, objectSubjectColumns } from "./attach-objects.js";
import type { WebhookContext } from "./context.js";
import { type DeliveryOutcome, deliverWebhook } from "./deliver.js";

/**
 * Hands a due delivery to whatever sends it, in practice a BullMQ add (see webhookEnqueuer).
 * `attempt` is the attempt about to be made, so the job id can name it: re-enqueuing the same
 * attempt is then a no-op while its job is still queued.
 */
export type EnqueueDelivery = (delivery: { deliveryId: string; attempt: number }) => Promise<unknown>;

export interface DispatchOptions {
  /** At most this many deliveries per call; call again while it returns a full batch. */
  limit: number;
  /** Without it, deliveries are sent inline, one after another (tests, tools, a queue-less setup). */
  enqueue?: EnqueueDelivery;
}

export interface DispatchResult {
  deliveryIds: string[];
  /** Inline sends only; with `enqueue` the outcomes belong to the jobs. */
  outcomes: DeliveryOutcome[];
}

/**
 * Finds pending deliveries whose next_attempt_at has come, through the partial index
 * webhook_deliveries_due_idx, and sends or enqueues them. This is what makes Postgres the schedule:
 * a job lost with Redis, a delayed hint that never fired, a worker that died mid-request all end
 * the same way, with the delivery found here again once due.
 *
 * Rows are locked FOR UPDATE SKIP LOCKED while they are enqueued, so concurrent dispatchers split
 * the due rows between them instead of enqueuing the same ones, and rows being claimed by a
 * delivery right now are left to it. Inline sends happen after that transaction commits:
 * deliverWebhook claims the row itself, and would otherwise wait on this transaction's lock.
 *
 * Before they are handed out, the batch's charge and subscription events get their object
 * (attach-objects.ts), in the same transaction: it is in the payload before any job can send it.
 */
export async function dispatchDueWebhooks(
  ctx: WebhookContext,
  { limit, enqueue }: DispatchOptions,
): Promise<DispatchResult> {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`limit must be a whole number from 1, got ${limit}`);
  }
  const now = ctx.clock.now().toJSDate();
  const due = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts, ...objectSubjectColumns })
      .from(webhookDeliveries)
      .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
      .where(
        and(
          eq(webhookDeliveries.status, "pending"),
          isNotNull(webhookDeliveries.nextAttemptAt),
          lte(webhookDeliveries.nextAttemptAt, now),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit)
      .for("update", { of: webhookDeliveries, skipLocked: true });
    await attachEventObjects(tx, ctx, rows);
    if (enqueue) {
      for (const row of rows) await enqueue({ deliveryId: row.id, attempt: row.attempts + 1 });
    }
    return rows;
  });
  const deliveryIds = due.map((row) => row.id);
  if (due.length > 0) {
    ctx.logger.debug({ component: "webhooks", count: due.length, inline: !enqueue }, "webhooks dispatched");
  }
  const outcomes: DeliveryOutcome[] = [];
  if (!enqueue) {
    for (const id of deliveryIds) outcomes.push(await deliverWebhook(ctx, id));
  }
  return { deliveryIds, outcomes };
}
