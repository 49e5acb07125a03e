import type { PendingQuery, Row } from "postgres";
import { quietSeconds } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import { OPEN_REFUND_STATUSES, reconcileRefund } from "../refunds/index.js";

/**
 * Rule: no refund stays open forever. Refunds still `requested` (the process died mid-call) or
 * `unknown` (the reply was lost) and older than the quiet period are reconciled here, in the
 * `refunds` status check the tick hands out (status-checks.ts), from the gateway's CheckStatus
 * (refunds/reconcile-refund.ts): completed, under_processing, or failed when the gateway never saw
 * the refund.
 *
 * One bounded batch per run, oldest first, one CheckStatus per row, sequentially. No row lock is
 * held across the gateway call: reconcileRefund is idempotent (its write is conditional on the row
 * still being open), so overlapping runs at worst ask the gateway twice. When CheckStatus is
 * unavailable the rest of the batch waits for the next run rather than hammering a gateway that
 * is down. Age is measured on Postgres's clock (see charging/quiet-period.ts).
 */
export const MAX_REFUNDS_PER_RUN = 50;

export async function dispatchRefunds(
  ctx: Pick<EngineContext, "db" | "gateway" | "clock" | "logger" | "config">,
  options: { batchSize: number; quietPeriodMs: number },
): Promise<number> {
  const { quietPeriodMs } = options;
  const limit = Math.min(options.batchSize, MAX_REFUNDS_PER_RUN);
  const sql = ctx.db.$client;
  const stale = await sql<{ id: string }[]>`
    select id ${staleRefunds(sql, quietPeriodMs)}
    order by created_at, id
    limit ${limit}`;
  let reconciled = 0;
  for (const { id } of stale) {
    try {
      const result = await reconcileRefund(ctx, id, { quietPeriodMs });
      if (result.kind === "settled") reconciled += 1;
      if (result.kind === "unavailable") break;
    } catch (err) {
      ctx.logger.error({ err, refundId: id }, "reconciling a refund failed; trying again next tick");
    }
  }
  return reconciled;
}

/** Open refunds past the quiet period, as dispatchRefunds selects them; work-probe.ts asks it too. */
export function staleRefunds(sql: SqlRunner, quietPeriodMs: number): PendingQuery<Row[]> {
  return sql`
    from refunds
    where status in ${sql(OPEN_REFUND_STATUSES)}
      and created_at <= now() - make_interval(secs => ${quietSeconds(quietPeriodMs)}::double precision)`;
}
