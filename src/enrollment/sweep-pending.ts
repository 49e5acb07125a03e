import type { PendingQuery, Row } from "postgres";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import { applyGatewayCallback } from "./apply-gateway-callback.js";
import { ENROLLMENT_EVENTS } from "./events.js";

/**
 * Rule: no enrolment stays pending for ever. One still pending ENROLLMENT_PENDING_HOURS after it
 * began (Postgres's clock) is settled from the gateway, exactly as a callback would be
 * (applyGatewayCallback asks CheckStatus on its orderId): a payment the callbacks never reported,
 * or whose callback failed, completes or fails it now. When the gateway has no processed payment
 * for it, the checkout was abandoned: the enrolment expires with `enrollment.expired` (the
 * subscription stays pending_enrollment; a new checkout can be started). When settling it fails
 * again, it is failed with operator_attention saying why, so a person looks at it once instead
 * of the sweep retrying it for ever.
 *
 * Run as the `enrollments` status check the billing tick hands out, one bounded batch, oldest
 * first; safe to overlap (each write is conditional on the enrolment still being pending).
 */
export const MAX_ENROLLMENTS_SWEPT_PER_RUN = 50;
const ACTOR = "enrollment-sweep";

export async function sweepPendingEnrollments(
  ctx: Pick<EngineContext, "db" | "clock" | "gateway" | "vault" | "logger" | "config">,
  options: { batchSize: number },
): Promise<{ settled: number; expired: number; failed: number }> {
  const counts = { settled: 0, expired: 0, failed: 0 };
  const sql = ctx.db.$client;
  const stale = await sql<{ id: string; subscription_id: string }[]>`
    select id, subscription_id ${stalePendingEnrollments(sql, ctx.config.ENROLLMENT_PENDING_HOURS)}
    order by created_at, id
    limit ${Math.min(options.batchSize, MAX_ENROLLMENTS_SWEPT_PER_RUN)}`;
  for (const enrollment of stale) {
    let outcome: "settled" | "expired" | "failed";
    let why: string;
    try {
      const result = await applyGatewayCallback(ctx, { source: "sweep", params: { orderId: enrollment.id } });
      outcome = result.outcome === "ignored" ? "expired" : "settled";
      why = "the gateway has no processed payment for its checkout";
    } catch (err) {
      ctx.logger.error({ err, enrollmentId: enrollment.id }, "settling a stale pending enrolment failed");
      outcome = "failed";
      why = `settling it from CheckStatus failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (outcome !== "settled") {
      const closed = await sql.begin(async (tx) => {
        const rows = await tx`
          update enrollments set status = ${outcome === "expired" ? "expired" : "failed"}::enrollment_status,
            failure_description = coalesce(failure_description, ${why}),
            operator_attention = ${outcome === "failed" ? why : null}
          where id = ${enrollment.id}::uuid and status = 'pending'
          returning id`;
        if (rows.length === 0) return false;
        await recordEvents(tx, [
          {
            type:
              outcome === "expired" ? ENROLLMENT_EVENTS.enrollmentExpired : ENROLLMENT_EVENTS.needsAttention,
            actor: ACTOR,
            occurredAt: ctx.clock.now(),
            subscriptionId: enrollment.subscription_id,
            data: { enrollment_id: enrollment.id, reason: why },
          },
        ]);
        return true;
      });
      if (!closed) continue;
    }
    counts[outcome] += 1;
  }
  return counts;
}

/** Enrolments pending longer than `hours`, as the sweep selects them; the tick asks it too. */
export function stalePendingEnrollments(sql: SqlRunner, hours: number): PendingQuery<Row[]> {
  return sql`
    from enrollments
    where status = 'pending' and created_at <= now() - make_interval(hours => ${hours})`;
}
