import { refreshClock } from "../context/index.js";
import {
  JOB_NAMES,
  makeWayForJob,
  type PayloadProcessor,
  QUEUE_NAMES,
  type QueueSource,
  webhookJobId,
  webhookPayload,
} from "../queue/index.js";
import type { WebhookContext } from "./context.js";
import { deliverWebhook } from "./deliver.js";
import type { EnqueueDelivery } from "./dispatch.js";

/**
 * The BullMQ side of webhook delivery. A job carries only `{ deliveryId }`; the delivery row says
 * whether and when to send (see deliver.ts). Wiring, in the worker process:
 *
 *   system.worker("webhooks", webhookJobProcessor(ctx, system));
 *   // on every tick:
 *   await dispatchDueWebhooks(ctx, { limit: 100, enqueue: webhookEnqueuer(system) });
 */

/** One job per attempt: the id names the attempt, so a finished attempt never blocks the next. */
export function webhookAttemptJobId(deliveryId: string, attempt: number): string {
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new RangeError(`webhook attempt must be a whole number from 1, got ${attempt}`);
  }
  return `${webhookJobId(deliveryId)}-${attempt}`;
}

export function webhookEnqueuer(queues: QueueSource): EnqueueDelivery {
  return async ({ deliveryId, attempt }) => addAttemptJob(queues, deliveryId, attempt, 0);
}

async function addAttemptJob(
  queues: QueueSource,
  deliveryId: string,
  attempt: number,
  delayMs: number,
): Promise<void> {
  const queue = queues.queue(QUEUE_NAMES.webhooks);
  const jobId = webhookAttemptJobId(deliveryId, attempt);
  // A job ends failed only when deliverWebhook threw through all of BullMQ's retries (Postgres
  // unreachable, so the attempt was never claimed). BullMQ keeps failed jobs, ids included, for a
  // week, and adding the id again would be a silent no-op, stranding a delivery that Postgres says
  // is due. Postgres is the schedule, so the stale job makes way.
  if (!(await makeWayForJob(queue, jobId))) return;
  await queue.add(JOB_NAMES.webhooks, webhookPayload.parse({ deliveryId }), {
    jobId,
    delay: delayMs > 0 ? delayMs : undefined,
  });
}

/**
 * Runs one attempt. After a failed attempt it also adds a delayed job for the next one, due at
 * next_attempt_at: a hint so the retry goes out on time rather than at the dispatcher's next pass.
 * If the hint is lost the dispatcher still finds the delivery; if it fires early (another host's
 * clock, a controllable billing clock) deliverWebhook finds it not due and does nothing.
 */
export function webhookJobProcessor(ctx: WebhookContext, queues: QueueSource): PayloadProcessor<"webhooks"> {
  return async ({ deliveryId }) => {
    // Every job reads the shared billing clock afresh, as the other workers do: a delivery made due
    // by `billing clock advance` in another process is due here too.
    await refreshClock(ctx.clock);
    const outcome = await deliverWebhook(ctx, deliveryId);
    if (outcome.status === "retry_scheduled") {
      const delayMs = Math.max(0, outcome.nextAttemptAt.diff(ctx.clock.now()).toMillis());
      // The attempt is recorded; failing the job over a lost hint would only retry a no-op.
      await addAttemptJob(queues, deliveryId, outcome.attempts + 1, delayMs).catch((err: unknown) =>
        ctx.logger.warn({ err, component: "webhooks", deliveryId }, "could not add the retry hint job"),
      );
    }
    return outcome.status;
  };
}
