import type { EngineContext } from "../context/index.js";
import { QUEUE_NAMES, queueDepth } from "../queue/index.js";
import type { CheckResult } from "./check.js";

/**
 * queue: the queue backend (Redis, or BullMQ's PostgreSQL backend) answers one read of the charge
 * queue's counts, which the detail shows. Depth is information, not a verdict: a backlog drains.
 */
export async function queueCheck(ctx: Pick<EngineContext, "queues">): Promise<CheckResult> {
  const { queue, ...depth } = await queueDepth(ctx.queues, QUEUE_NAMES.charges);
  const counts = `${depth.waiting} waiting, ${depth.active} active, ${depth.delayed} delayed, ${depth.failed} failed`;
  return {
    status: "ok",
    reason: `${ctx.queues.backend} answers; ${queue}: ${counts}`,
    detail: { backend: ctx.queues.backend, queue, ...depth },
  };
}
