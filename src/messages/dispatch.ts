import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { customerMessages } from "../db/schema/index.js";
import type { MessageContext } from "./context.js";
import { deliverMessage, type MessageOutcome } from "./deliver.js";

/**
 * Finds the pending messages whose next_attempt_at has come (the partial index
 * customer_messages_due_idx) and enqueues them, or sends them inline when there is no queue. This
 * is what makes Postgres the schedule: a job lost with Redis, a delayed hint that never fired, a
 * worker that died mid-send all end the same way, with the message found here again once due.
 *
 * Rows are locked FOR UPDATE SKIP LOCKED while they are enqueued, so concurrent dispatchers split
 * the due rows instead of enqueuing the same ones, and a row being claimed right now is left to
 * its attempt. Inline sends run after that transaction commits: each claims its row itself.
 */

/**
 * Hands a due message to whatever sends it: `attempt` is the attempt about to be made and `dueAt`
 * when it came due, so a job id can name both (queue.ts).
 */
export type EnqueueMessage = (message: {
  messageId: string;
  attempt: number;
  dueAt: Date;
}) => Promise<unknown>;

export interface DispatchMessagesOptions {
  /** At most this many messages per call; call again while it returns a full batch. */
  limit: number;
  /** Without it, messages are sent inline, one after another (tests, tools, a queue-less setup). */
  enqueue?: EnqueueMessage;
}

export interface DispatchMessagesResult {
  messageIds: string[];
  /** Inline sends only; with `enqueue` the outcomes belong to the jobs. */
  outcomes: MessageOutcome[];
}

export async function dispatchDueMessages(
  ctx: MessageContext,
  { limit, enqueue }: DispatchMessagesOptions,
): Promise<DispatchMessagesResult> {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`limit must be a whole number from 1, got ${limit}`);
  }
  const now = ctx.clock.now().toJSDate();
  const due = await ctx.db.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: customerMessages.id,
        attempts: customerMessages.attempts,
        dueAt: customerMessages.nextAttemptAt,
      })
      .from(customerMessages)
      .where(
        and(
          eq(customerMessages.status, "pending"),
          isNotNull(customerMessages.nextAttemptAt),
          lte(customerMessages.nextAttemptAt, now),
        ),
      )
      .orderBy(asc(customerMessages.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (enqueue) {
      for (const row of rows) {
        await enqueue({ messageId: row.id, attempt: row.attempts + 1, dueAt: row.dueAt ?? now });
      }
    }
    return rows;
  });
  const messageIds = due.map((row) => row.id);
  if (due.length > 0) {
    ctx.logger.debug({ component: "messages", count: due.length, inline: !enqueue }, "messages dispatched");
  }
  const outcomes: MessageOutcome[] = [];
  if (!enqueue) {
    for (const id of messageIds) outcomes.push(await deliverMessage(ctx, id));
  }
  return { messageIds, outcomes };
}
