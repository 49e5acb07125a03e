import type { PendingQuery, Row } from "postgres";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import { RefundError, refundDuplicate } from "../refunds/index.js";

/**
 * Rule: every duplicate payment (an approved attempt with duplicate_at) has a live refund: the
 * money the gateway took twice goes back without anyone asking. Duplicates without one (just found,
 * or their process died before the call, or the gateway refused the refund) are refunded here, in a
 * status check the tick hands out. A refused refund is tried again with backoff (a minute after the
 * first failure, doubling, at most every six hours), so a gateway that keeps refusing is not
 * hammered and an operator sees the failures (`charge.refund_failed`) meanwhile. Unknown or
 * requested refunds are live: the refund reconciler settles them (scheduler/dispatch-refunds.ts),
 * never a second call.
 */
export const MAX_DUPLICATE_REFUNDS_PER_RUN = 50;
const ACTOR = "late-payments";

export async function refundDuplicates(
  ctx: Pick<EngineContext, "db" | "gateway" | "clock" | "logger">,
  options: { batchSize: number },
): Promise<number> {
  const sql = ctx.db.$client;
  const owed = await sql<{ id: string; charge_id: string }[]>`
    select a.id, a.charge_id ${duplicatesOwed(sql)}
    order by a.duplicate_at, a.id
    limit ${Math.min(options.batchSize, MAX_DUPLICATE_REFUNDS_PER_RUN)}`;
  let refunded = 0;
  for (const { id, charge_id } of owed) {
    try {
      const refund = await refundDuplicate(ctx, { attemptId: id, actor: ACTOR });
      if (refund.status === "completed" || refund.status === "under_processing") refunded += 1;
    } catch (err) {
      // Refused or raced: recorded on the refund row and its event; tried again on a later run.
      const expected = err instanceof RefundError;
      ctx.logger[expected ? "warn" : "error"](
        { err, chargeId: charge_id, attemptId: id },
        "refunding a duplicate payment failed; trying again later",
      );
    }
  }
  return refunded;
}

/** Duplicate payments owed a refund now, as refundDuplicates selects them; the tick asks it too. */
export function duplicatesOwed(sql: SqlRunner): PendingQuery<Row[]> {
  return sql`
    from charge_attempts a
    left join lateral (
      select count(*)::int as failures, max(r.created_at) as last_failure from refunds r
      where r.charge_attempt_id = a.id and r.status = 'failed'
    ) f on true
    where a.duplicate_at is not null
      and not exists (select 1 from refunds r where r.charge_attempt_id = a.id and r.status <> 'failed')
      and (f.failures = 0
        or f.last_failure <= now() - make_interval(secs => least(60 * power(2, f.failures - 1), 21600)))`;
}
