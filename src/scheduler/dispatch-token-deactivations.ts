import { and, asc, eq, exists, gt, isNull, ne, notExists, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { EngineContext } from "../app/index.js";
import { paymentMethods, subscriptions } from "../db/schema/index.js";
import {
  enqueueTokenDeactivation,
  isJobPresent,
  QUEUE_NAMES,
  tokenDeactivationJobId,
} from "../queue/index.js";
import { inBatches } from "./batches.js";

/**
 * Rule: the card of a canceled subscription is stopped at the gateway even if its job was lost.
 * Cancellation (API, the scheduler's cancel_at_period_end, a charge outcome whose dunning policy
 * cancels) queues `token-deactivation-<payment method id>` only after its transaction commits; a
 * failed enqueue is logged, and a Redis wipe drops a queued job. Postgres keeps the intent: a card
 * not deactivated, of a canceled subscription (saved for it, or its current card), that no
 * subscription that is not canceled charges (the same cards cancelSubscription stops). Each gets its
 * job unless one exists; a failed one is kept (a refusal waits for an operator). Stopping twice is
 * harmless (a second StopRecurring answers -7), and the worker re-checks that no live subscription
 * uses the card before calling the gateway.
 *
 * No partial index covers these rows, so this is a scan bounded by the batch size per transaction.
 * Rows are locked FOR UPDATE SKIP LOCKED; paging is by payment method id.
 */
const owner = alias(subscriptions, "canceled_owner");
const user = alias(subscriptions, "live_user");

export async function dispatchTokenDeactivations(
  ctx: Pick<EngineContext, "db" | "queues">,
  options: { batchSize: number },
): Promise<number> {
  const { batchSize } = options;
  const queue = ctx.queues.queue(QUEUE_NAMES.tokenDeactivation);
  let enqueued = 0;
  await inBatches<string>(batchSize, (after) =>
    ctx.db.transaction(async (tx) => {
      const canceledOwner = tx
        .select({ id: owner.id })
        .from(owner)
        .where(
          and(
            eq(owner.status, "canceled"),
            or(eq(owner.id, paymentMethods.subscriptionId), eq(owner.paymentMethodId, paymentMethods.id)),
          ),
        );
      const liveUser = tx
        .select({ id: user.id })
        .from(user)
        .where(and(eq(user.paymentMethodId, paymentMethods.id), ne(user.status, "canceled")));
      const rows = await tx
        .select({ id: paymentMethods.id })
        .from(paymentMethods)
        .where(
          and(
            isNull(paymentMethods.deactivatedAt),
            exists(canceledOwner),
            notExists(liveUser),
            after === undefined ? undefined : gt(paymentMethods.id, after),
          ),
        )
        .orderBy(asc(paymentMethods.id))
        .limit(batchSize)
        .for("update", { of: paymentMethods, skipLocked: true });
      for (const { id } of rows) {
        if (await isJobPresent(queue, tokenDeactivationJobId(id))) continue;
        await enqueueTokenDeactivation(ctx.queues, { paymentMethodId: id });
        enqueued += 1;
      }
      return { rows: rows.length, cursor: rows.at(-1)?.id };
    }),
  );
  return enqueued;
}
