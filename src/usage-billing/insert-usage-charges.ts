import type { DateTime } from "luxon";
import type { PendingQuery, Row } from "postgres";
import type { ChargeLine } from "../billing/index.js";
import { pgInstant, type SqlTx } from "../db/index.js";
import type { EventInput } from "../events/index.js";
import { createdChargeEvents, insertChargeLines } from "../pricing/index.js";
import type { DuePeriod } from "./due-periods.js";

/**
 * Rule: one usage charge per period, written for a whole batch in one INSERT … ON CONFLICT DO
 * NOTHING on charges_usage_period_key, so a period is billed once however many ticks try: kind
 * usage, the period charge's period and plan, quantity 1, no discount or credit. A part billed
 * before the period closed (usage_part n) is written the same way, once per number
 * (charges_usage_part_key). At zero it is
 * recorded paid without the gateway (it still marks the period's usage as billed); otherwise it is
 * scheduled, due now and recorded as dispatched, for the caller to hand out once committed. Every
 * charge written stores its lines (one per priced meter) and has its `charge.created` events.
 */

export interface PricedPeriod {
  readonly period: DuePeriod;
  readonly lines: readonly ChargeLine[];
  readonly totalMinor: number;
  /** The part's number when billed before the period closed; null for the closing charge. */
  readonly usagePart: number | null;
}

const ACTOR = "scheduler";

export async function insertUsageCharges(
  tx: SqlTx,
  priced: readonly PricedPeriod[],
  now: DateTime,
): Promise<{ created: number; toCollect: string[]; events: EventInput[] }> {
  if (priced.length === 0) return { created: 0, toCollect: [], events: [] };
  const key = (subscriptionId: string, start: DateTime, part: number | null) =>
    `${subscriptionId} ${start.toMillis()} ${part}`;
  const byKey = new Map(priced.map((p) => [key(p.period.subscriptionId, p.period.start, p.usagePart), p]));
  const closing = priced.filter((p) => p.usagePart === null);
  const parts = priced.filter((p) => p.usagePart !== null);
  const inserted = [
    ...(await insertRows(
      tx,
      closing,
      now,
      tx`(subscription_id, period_start) where charge_kind_is_usage(kind) and usage_part is null`,
    )),
    ...(await insertRows(
      tx,
      parts,
      now,
      tx`(subscription_id, period_start, usage_part) where usage_part is not null`,
    )),
  ];
  const written = inserted.map((charge) => ({
    charge,
    priced: byKey.get(key(charge.subscription_id, pgInstant(charge.period_start), charge.usage_part))!,
  }));
  await insertChargeLines(
    tx,
    written.map(({ charge, priced }) => ({ chargeId: charge.id, lines: priced.lines })),
  );
  const events = written.flatMap(({ charge, priced: { period, lines, totalMinor, usagePart } }) =>
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
        usage_part: usagePart,
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

type Inserted = {
  id: string;
  subscription_id: string;
  period_start: string;
  usage_part: number | null;
  status: string;
};

async function insertRows(
  tx: SqlTx,
  priced: readonly PricedPeriod[],
  now: DateTime,
  conflictTarget: PendingQuery<Row[]>,
): Promise<Inserted[]> {
  if (priced.length === 0) return [];
  const nowIso = now.toUTC().toISO();
  return tx<Inserted[]>`
    insert into charges (subscription_id, plan_id, kind, quantity, usage_part, period_start, period_end,
                         amount_minor, currency, status, next_attempt_at, dispatched_at, paid_at)
    select v.subscription_id, v.plan_id, 'usage', 1, v.usage_part, v.period_start, v.period_end, v.amount_minor,
           v.currency,
           case when v.amount_minor = 0 then 'paid'::charge_status else 'scheduled'::charge_status end,
           case when v.amount_minor = 0 then null else ${nowIso}::timestamptz end,
           case when v.amount_minor = 0 then null else now() end,
           case when v.amount_minor = 0 then ${nowIso}::timestamptz end
    from unnest(
      ${priced.map((p) => p.period.subscriptionId)}::uuid[], ${priced.map((p) => p.period.planId)}::uuid[],
      ${priced.map((p) => p.usagePart)}::int[],
      ${priced.map((p) => p.period.start.toUTC().toISO())}::text[]::timestamptz[],
      ${priced.map((p) => p.period.end.toUTC().toISO())}::text[]::timestamptz[],
      ${priced.map((p) => String(p.totalMinor))}::text[]::bigint[],
      ${priced.map((p) => p.period.currency)}::text[]
    ) as v(subscription_id, plan_id, usage_part, period_start, period_end, amount_minor, currency)
    order by v.subscription_id, v.period_start
    on conflict ${conflictTarget} do nothing
    returning id, subscription_id, period_start, usage_part, status`;
}
