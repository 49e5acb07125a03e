import { ALL_QUEUE_NAMES, type QueueName } from "./names.js";
import type { QueueSystem } from "./queue-system.js";

/**
 * How much work each queue holds, as BullMQ counts it: for the ops dashboard, /metrics and the
 * health checks. Prioritized jobs count as waiting (they are waiting, in another list).
 */
export interface QueueDepth {
  queue: QueueName;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export async function queueDepths(queues: Pick<QueueSystem, "queue">): Promise<QueueDepth[]> {
  return Promise.all(ALL_QUEUE_NAMES.map((name) => queueDepth(queues, name)));
}

/** One queue's depth: a single BullMQ read, so it also tells whether the queue backend answers. */
export async function queueDepth(queues: Pick<QueueSystem, "queue">, name: QueueName): Promise<QueueDepth> {
  const counts = await queues
    .queue(name)
    .getJobCounts("waiting", "prioritized", "active", "delayed", "failed");
  return {
    queue: name,
    waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    failed: counts.failed ?? 0,
  };
}
