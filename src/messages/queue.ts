import type { DateTime } from "luxon";
import { refreshClock } from "../context/index.js";
import {
  JOB_NAMES,
  makeWayForJob,
  messageJobId,
  messagePayload,
  type PayloadProcessor,
  QUEUE_NAMES,
  type QueueSource,
} from "../queue/index.js";
import type { MessageContext } from "./context.js";
import { deliverMessage } from "./deliver.js";
import type { EnqueueMessage } from "./dispatch.js";

/**
 * The BullMQ side of customer messages, as for webhooks (src/webhooks/queue.ts). A job carries
 * only `{ messageId }`; the message row says whether and when to send. Wiring, in the worker
 * process:
 *
 *   system.worker("messages", messageJobProcessor(ctx, system));
 *   // on every tick:
 *   await dispatchDueMessages(ctx, { limit: 500, enqueue: messageEnqueuer(system) });
 *
 * One job per attempt and due time: the id names the attempt and when it came due, so the
 * dispatcher enqueuing a waiting message again is a no-op, while a finished attempt, or a message
 * held by quiet hours (the same attempt, due later), never finds its next job's id taken.
 */

export function messageAttemptJobId(messageId: string, attempt: number, dueAt: Date): string {
  if (!Number.isSafeInteger(attempt) || attempt < 1) {
    throw new RangeError(`message attempt must be a whole number from 1, got ${attempt}`);
  }
  return `${messageJobId(messageId)}-${attempt}-${dueAt.getTime()}`;
}

export function messageEnqueuer(queues: QueueSource): EnqueueMessage {
  return async ({ messageId, attempt, dueAt }) =>
    addAttemptJob(queues, messageAttemptJobId(messageId, attempt, dueAt), messageId, 0);
}

async function addAttemptJob(queues: QueueSource, jobId: string, messageId: string, delayMs: number) {
  const queue = queues.queue(QUEUE_NAMES.messages);
  // A job ends failed only when deliverMessage threw through every BullMQ retry (Postgres
  // unreachable). BullMQ keeps failed jobs, ids included, and adding the id again would be a
  // silent no-op that strands a message Postgres says is due: the stale job makes way.
  if (!(await makeWayForJob(queue, jobId))) return;
  await queue.add(JOB_NAMES.messages, messagePayload.parse({ messageId }), {
    jobId,
    delay: delayMs > 0 ? delayMs : undefined,
  });
}

/**
 * Runs one attempt. When the message is to be tried again (not taken this time, or held until
 * quiet hours end), it also adds a delayed job for that time: a hint so it goes out on time rather
 * than at the dispatcher's next pass. A lost hint is found by the dispatcher; one that fires early
 * (another host's clock, a controllable billing clock) finds the message not due and does nothing.
 */
export function messageJobProcessor(ctx: MessageContext, queues: QueueSource): PayloadProcessor<"messages"> {
  return async ({ messageId }) => {
    // Every job reads the shared billing clock afresh: a message made due by `billing clock
    // advance` in another process is due here too.
    await refreshClock(ctx.clock);
    const outcome = await deliverMessage(ctx, messageId);
    let next: { attempt: number; at: DateTime } | null = null;
    if (outcome.status === "retry_scheduled")
      next = { attempt: outcome.attempts + 1, at: outcome.nextAttemptAt };
    if (outcome.status === "held") next = { attempt: outcome.attempts + 1, at: outcome.until };
    if (next !== null) {
      const jobId = messageAttemptJobId(messageId, next.attempt, next.at.toJSDate());
      const delayMs = Math.max(0, next.at.diff(ctx.clock.now()).toMillis());
      await addAttemptJob(queues, jobId, messageId, delayMs).catch((err: unknown) =>
        ctx.logger.warn(
          { err, component: "messages", messageId },
          "could not add the next attempt's hint job",
        ),
      );
    }
    return outcome.status;
  };
}
