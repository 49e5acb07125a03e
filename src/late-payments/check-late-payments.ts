import type { PendingQuery, Row } from "postgres";
import { lateWatchDelaySeconds, lateWatchPolicy } from "../billing/index.js";
import { lookUpStatus } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInteger, type SqlRunner } from "../db/index.js";
import { applyLatePayment, type LateResolution } from "./apply-late-payment.js";

/**
 * Rule: an attempt closed as "no money moved" because CheckStatus did not know its orderId is asked
 * about again over LATE_PAYMENT_WATCH_HOURS, first LATE_PAYMENT_FIRST_CHECK_SECONDS after it was
 * closed, then twice as long each time up to LATE_PAYMENT_MAX_CHECK_INTERVAL_SECONDS
 * (billing/late-payment.ts). A gateway that applied it late answers SUCCESS, and the payment is
 * applied (apply-late-payment.ts). Still not found, or PENDING: asked again later, until the window
 * ends. FAILURE: the gateway processed it and took nothing; the watch ends.
 *
 * Run as the `late-payments` status check the billing tick hands out: one bounded batch of due
 * attempts (late_check_at on Postgres's clock, like the quiet period), one CheckStatus each,
 * sequentially. CheckStatus failing stops the batch: a gateway that is down is not hammered, and
 * the rows are due again at the next run. Safe to overlap: applying is conditional on the attempt
 * still being watched, and a reschedule on it too.
 */
export const MAX_LATE_CHECKS_PER_RUN = 100;

export interface LateCheckCounts {
  checked: number;
  found: Record<Exclude<LateResolution, "gone">, number>;
}

interface WatchedRow {
  id: string;
  charge_id: string;
  order_id: string;
  attempt_number: number;
  late_checks: number;
  age_seconds: string;
}

type Ctx = Pick<EngineContext, "db" | "gateway" | "clock" | "logger" | "config">;

export async function checkLatePayments(ctx: Ctx, options: { batchSize: number }): Promise<LateCheckCounts> {
  const counts: LateCheckCounts = { checked: 0, found: { paid: 0, duplicate: 0, held: 0, wait: 0 } };
  const sql = ctx.db.$client;
  const due = await sql<WatchedRow[]>`
    select id, charge_id, order_id, attempt_number, late_checks,
      extract(epoch from now() - created_at)::bigint as age_seconds
    ${lateChecksDue(sql)}
    order by late_check_at, id
    limit ${Math.min(options.batchSize, MAX_LATE_CHECKS_PER_RUN)}`;
  const policy = lateWatchPolicy(ctx.config);

  for (const row of due) {
    const lookup = await lookUpStatus(ctx, row.order_id);
    // Unreachable or throttled: the rest waits for the next run.
    if (lookup.kind !== "lookup") break;
    counts.checked += 1;
    const log = { chargeId: row.charge_id, orderId: row.order_id };
    const { result } = lookup;
    if (result.found && result.payment.state === "SUCCESS") {
      const resolution = await applyLatePayment(ctx, {
        chargeId: row.charge_id,
        attemptId: row.id,
        attemptNumber: row.attempt_number,
        orderId: row.order_id,
        transactionId: result.payment.transactionId,
        authCode: result.payment.authCode || null,
      });
      if (resolution === "gone") continue;
      counts.found[resolution] += 1;
      ctx.logger.warn({ ...log, resolution }, "the gateway applied a payment we had closed as not taken");
      if (resolution !== "wait") continue;
    }
    const settledNo = result.found && result.payment.state === "FAILURE";
    const delay = settledNo
      ? null
      : lateWatchDelaySeconds(policy, row.late_checks, pgInteger(row.age_seconds));
    await sql`
      update charge_attempts set late_checks = late_checks + 1,
        late_check_at = now() + make_interval(secs => ${delay}::double precision)
      where id = ${row.id}::uuid and status = 'failed_permanently' and late_check_at is not null`;
  }
  return counts;
}

/** Watched attempts due a late check, as checkLatePayments selects them; the tick asks it too. */
export function lateChecksDue(sql: SqlRunner): PendingQuery<Row[]> {
  return sql`
    from charge_attempts
    where status = 'failed_permanently' and late_check_at is not null and late_check_at <= now()`;
}
