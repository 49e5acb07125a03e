import type { PendingQuery, Row } from "postgres";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
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
 * The scan starts from canceled subscriptions (the partial index subscriptions_canceled_idx), not
 * from every saved card, so it costs what churn has left, not the size of the customer base. Rows
 * are locked FOR UPDATE SKIP LOCKED; paging is by payment method id.
 */
export async function dispatchTokenDeactivations(
  ctx: Pick<EngineContext, "db" | "queues">,
  options: { batchSize: number },
): Promise<number> {
  const { batchSize } = options;
  const queue = ctx.queues.queue(QUEUE_NAMES.tokenDeactivation);
  let enqueued = 0;
  await inBatches<string>(batchSize, (after) =>
    ctx.db.$client.begin(async (tx) => {
      const rows = await tx<{ id: string }[]>`
        select pm.id ${cardsToStop(tx)}
          and pm.id > ${after ?? "00000000-0000-0000-0000-000000000000"}::uuid
        order by pm.id
        limit ${batchSize}
        for update of pm skip locked`;
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

/** Cards to stop, as dispatchTokenDeactivations selects them; work-probe.ts asks it too. */
export function cardsToStop(sql: SqlRunner): PendingQuery<Row[]> {
  return sql`
    from payment_methods pm
    where pm.deactivated_at is null
      and pm.id in (
        select card.id from subscriptions owner
        join payment_methods card on card.subscription_id = owner.id
        where owner.status = 'canceled'
        union
        select owner.payment_method_id from subscriptions owner
        where owner.status = 'canceled' and owner.payment_method_id is not null)
      and not exists (select 1 from subscriptions live
                      where live.payment_method_id = pm.id and live.status <> 'canceled')`;
}
