import type { DateTime } from "luxon";
import type { PendingQuery, Row } from "postgres";
import { type IntervalUnit, sameInterval } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner, SqlTx } from "../db/index.js";
import { EVENT_TYPES, type EventInput, recordEvents } from "../events/index.js";

/**
 * Carries out plan (and quantity) changes scheduled for the end of a period, before the scheduler bills the period
 * that follows (scheduler/tick.ts runs this first), so that period is billed on the new plan. Rules:
 * - a change is applied once its effective_at has come and its trialing or active subscription is
 *   at a period boundary (next_billing_at reached: a pause and resume since may have moved it); a
 *   past_due, unpaid or paused one keeps the change waiting; a canceled one, or one that ends at its
 *   period's end, has the change canceled;
 * - a new interval re-anchors billing at next_billing_at, the boundary the new plan starts on;
 * - batches of changes are claimed with their subscriptions FOR UPDATE SKIP LOCKED, so concurrent
 *   ticks split them and a change is applied exactly once.
 */
interface DueChange {
  id: string;
  subscription_id: string;
  customer_id: string;
  from_plan_id: string;
  to_plan_id: string;
  from_quantity: number;
  to_quantity: number;
  status: string;
  cancel_at_period_end: boolean;
  from_unit: IntervalUnit;
  from_count: number;
  to_unit: IntervalUnit;
  to_count: number;
}

const ACTOR = "scheduler";

export async function applyScheduledPlanChanges(
  ctx: Pick<EngineContext, "db">,
  options: { now: DateTime; batchSize: number },
): Promise<{ applied: number; canceled: number }> {
  const counts = { applied: 0, canceled: 0 };
  for (;;) {
    const batch = await ctx.db.$client.begin((tx) => applyBatch(tx, options));
    counts.applied += batch.applied;
    counts.canceled += batch.canceled;
    if (batch.rows < options.batchSize) return counts;
  }
}

/** The changes due at `now`, as applyBatch selects them (scheduler/work-probe.ts asks it too). */
export function scheduledChangesDue(sql: SqlRunner, now: DateTime): PendingQuery<Row[]> {
  return sql`
    from plan_changes pc
    join subscriptions s on s.id = pc.subscription_id
    join plans fp on fp.id = pc.from_plan_id
    join plans tp on tp.id = pc.to_plan_id
    where pc.status = 'scheduled' and pc.effective_at <= ${now.toUTC().toISO()}::timestamptz
      and ((s.status in ('trialing', 'active') and s.next_billing_at <= ${now.toUTC().toISO()}::timestamptz)
           or s.status = 'canceled' or s.cancel_at_period_end)`;
}

async function applyBatch(tx: SqlTx, { now, batchSize }: { now: DateTime; batchSize: number }) {
  const nowIso = now.toUTC().toISO();
  const due = await tx<DueChange[]>`
    select pc.id, pc.subscription_id, s.customer_id, pc.from_plan_id, pc.to_plan_id, pc.from_quantity, pc.to_quantity,
           s.status, s.cancel_at_period_end,
           fp.interval_unit as from_unit, fp.interval_count as from_count,
           tp.interval_unit as to_unit, tp.interval_count as to_count
    ${scheduledChangesDue(tx, now)}
    order by pc.effective_at, pc.id
    limit ${batchSize}
    for update of pc, s skip locked`;
  const ending = due.filter((c) => c.status === "canceled" || c.cancel_at_period_end);
  const applying = due.filter((c) => !ending.includes(c));
  if (ending.length > 0) {
    await tx`
      update plan_changes set status = 'canceled', canceled_at = ${nowIso}::timestamptz
      where id = any(${ending.map((c) => c.id)}::text[]::uuid[])`;
  }
  if (applying.length > 0) {
    const reanchor = applying.map(
      (c) =>
        !sameInterval({ unit: c.from_unit, count: c.from_count }, { unit: c.to_unit, count: c.to_count }),
    );
    await tx`
      update subscriptions s set plan_id = v.plan_id, quantity = v.quantity,
        billing_anchor = case when v.reanchor then s.next_billing_at else s.billing_anchor end
      from unnest(${applying.map((c) => c.subscription_id)}::text[]::uuid[], ${applying.map((c) => c.to_plan_id)}::text[]::uuid[],
                  ${applying.map((c) => c.to_quantity)}::int[],
                  ${reanchor.map(String)}::text[]::bool[]) as v(id, plan_id, quantity, reanchor)
      where s.id = v.id`;
    await tx`
      update plan_changes set status = 'applied', applied_at = ${nowIso}::timestamptz
      where id = any(${applying.map((c) => c.id)}::text[]::uuid[])`;
  }
  const events = applying.map(
    (c): EventInput => ({
      type: EVENT_TYPES.subscriptionPlanChanged,
      actor: ACTOR,
      occurredAt: now,
      subscriptionId: c.subscription_id,
      customerId: c.customer_id,
      data: {
        plan_change_id: c.id,
        from_plan_id: c.from_plan_id,
        to_plan_id: c.to_plan_id,
        from_quantity: c.from_quantity,
        to_quantity: c.to_quantity,
        proration: "at_period_end",
        credit_minor: 0,
        debit_minor: 0,
        charge_id: null,
      },
    }),
  );
  const canceledEvents = ending.map(
    (c): EventInput => ({
      type: "subscription.plan_change_canceled",
      actor: ACTOR,
      occurredAt: now,
      subscriptionId: c.subscription_id,
      customerId: c.customer_id,
      data: { plan_change_id: c.id, reason: "the subscription ends" },
    }),
  );
  await recordEvents(tx, [...events, ...canceledEvents]);
  return { rows: due.length, applied: applying.length, canceled: ending.length };
}
