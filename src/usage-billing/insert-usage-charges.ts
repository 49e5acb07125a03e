import type { DateTime } from "luxon";
import type { ChargeLine } from "../billing/index.js";
import { pgInstant, type SqlTx } from "../db/index.js";
import type { EventInput } from "../events/index.js";
import { createdChargeEvents, insertChargeLines } from "../pricing/index.js";
import type { DuePeriod } from "./due-periods.js";

/**
 * Rule: one usage charge per period, written for a whole batch in one INSERT … ON CONFLICT DO
 * NOTHING on charges_usage_period_key, so a period is billed once however many ticks try: kind
 * usage, the period charge's period and plan, quantity 1, no discount or credit. At zero it is
 * recorded paid without the gateway (it still marks the period's usage as billed); otherwise it is
 * scheduled, due now and recorded as dispatched, for the caller to hand out once committed. Every
 * charge written stores its lines (one per priced meter) and has its `charge.created` events.
 */

export interface PricedPeriod {
  readonly period: DuePeriod;
  readonly lines: readonly ChargeLine[];
  readonly totalMinor: number;
}

const ACTOR = "scheduler";

export async function insertUsageCharges(
  tx: SqlTx,
  priced: readonly PricedPeriod[],
  now: DateTime,
): Promise<{ created: number; toCollect: string[]; events: EventInput[] }> {
  if (priced.length === 0) return { created: 0, toCollect: [], events: [] };
  const key = (subscriptionId: string, start: DateTime) => `${subscriptionId} ${start.toMillis()}`;
  const byKey = new Map(priced.map((p) => [key(p.period.subscriptionId, p.period.start), p]));
  const nowIso = now.toUTC().toISO();
  const inserted = await tx<{ id: string; subscription_id: string; period_start: string; status: string }[]>`
    insert into charges (subscription_id, plan_id, kind, quantity, period_start, period_end, amount_minor,
                         currency, status, next_attempt_at, dispatched_at, paid_at)
    select v.subscription_id, v.plan_id, 'usage', 1, v.period_start, v.period_end, v.amount_minor, v.currency,
           case when v.amount_minor = 0 then 'paid'::charge_status else 'scheduled'::charge_status end,
           case when v.amount_minor = 0 then null else ${nowIso}::timestamptz end,
           case when v.amount_minor = 0 then null else now() end,
           case when v.amount_minor = 0 then ${nowIso}::timestamptz end
    from unnest(
      ${priced.map((p) => p.period.subscriptionId)}::uuid[], ${priced.map((p) => p.period.planId)}::uuid[],
      ${priced.map((p) => p.period.start.toUTC().toISO())}::text[]::timestamptz[],
      ${priced.map((p) => p.period.end.toUTC().toISO())}::text[]::timestamptz[],
      ${priced.map((p) => String(p.totalMinor))}::text[]::bigint[],
      ${priced.map((p) => p.period.currency)}::text[]
    ) as v(subscription_id, plan_id, period_start, period_end, amount_minor, currency)
    order by v.subscription_id, v.period_start
    on conflict (subscription_id, period_start) where charge_kind_is_usage(kind) do nothing
    returning id, subscription_id, period_start, status`;
  const written = inserted.map((charge) => ({
    charge,
    priced: byKey.get(key(charge.subscription_id, pgInstant(charge.period_start)))!,
  }));
  await insertChargeLines(
    tx,
    written.map(({ charge, priced }) => ({ chargeId: charge.id, lines: priced.lines })),
  );
  const events = written.flatMap(({ charge, priced: { period, lines, totalMinor } }) =>
    createdChargeEvents(
      {
        actor: ACTOR,
        occurredAt: now,
        subscriptionId: period.subscriptionId,
        customerId: period.customerId,
        chargeId: charge.id,
      },
      {
        kind: "usage",
        period_start: period.start.toISO(),
        period_end: period.end.toISO(),
        period_charge_id: period.periodChargeId,
        amount_minor: totalMinor,
        currency: period.currency,
        quantity: 1,
        lines: lines.map((line) => ({
          meter_id: line.refId,
          description: line.description,
          quantity: line.quantity,
          amount_minor: line.amountMinor,
        })),
      },
    ),
  );
  return {
    created: inserted.length,
    toCollect: inserted.filter((charge) => charge.status !== "paid").map((charge) => charge.id),
    events,
  };
}
