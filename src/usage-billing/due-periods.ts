import { DateTime } from "luxon";
import type { PendingQuery, Row } from "postgres";
import type { IntervalUnit } from "../billing/index.js";
import { pgInstant, type SqlRunner, type SqlTx } from "../db/index.js";

/**
 * Rule: which periods' usage is due to be billed. A period is its period charge (kind `period`); it
 * is due once it ended USAGE_GRACE_HOURS ago (late events are in), its plan priced usage before it
 * ended, and it has no closing usage charge yet (parts billed before it closed do not count). Its subscription is locked FOR UPDATE SKIP LOCKED in
 * (period_end, charge id) order, so concurrent ticks split the work (the unique usage index still
 * stops a second charge whatever happens). A canceled subscription's periods are left out: its card
 * is never charged again (charging/cancel-orphaned-charge.ts), so a charge could not be collected.
 *
 * Cost: no plan prices usage, one query on the (small) prices table, nothing else. Otherwise the
 * scan starts from the subscriptions that can hold such a period (on a usage plan now, or moved off
 * one by a plan change) and reads their period charges in a window through the (subscription_id,
 * period_start) index: periods that ended at most LOOKBACK_DAYS before the grace ended. A period the
 * scheduler did not reach in that time (it was stopped longer) is not billed by it any more.
 */

export const LOOKBACK_DAYS = 60;

export interface UsagePlan {
  readonly id: string;
  readonly firstSetAt: DateTime;
  readonly interval: { readonly unit: IntervalUnit; readonly count: number };
}

/** The plans that price usage; the cheap path's one query. */
/** Every usage price with its plan: no usage is billed without one (the tick asks it first). */
export function usagePrices(sql: SqlRunner): PendingQuery<Row[]> {
  return sql`from plan_usage_prices up join plans p on p.id = up.plan_id`;
}

export async function usagePlans(sql: SqlRunner): Promise<UsagePlan[]> {
  const rows = await sql<
    { plan_id: string; first_set_at: string; interval_unit: IntervalUnit; interval_count: number }[]
  >`
    select up.plan_id, min(up.created_at) as first_set_at, p.interval_unit, p.interval_count
    ${usagePrices(sql)}
    group by up.plan_id, p.interval_unit, p.interval_count`;
  return rows.map((row) => ({
    id: row.plan_id,
    firstSetAt: pgInstant(row.first_set_at),
    interval: { unit: row.interval_unit, count: row.interval_count },
  }));
}

/** The bounds of the scan: periods ending in (lowEnd, cutoff], hence starting after lowStart. */
export interface ScanWindow {
  readonly planIds: readonly string[];
  readonly cutoff: DateTime;
  readonly lowEnd: DateTime;
  readonly lowStart: DateTime;
}

export function scanWindow(plans: readonly UsagePlan[], now: DateTime, graceHours: number): ScanWindow {
  const cutoff = now.toUTC().minus({ hours: graceHours });
  const instant = (ms: number) => DateTime.fromMillis(ms, { zone: "utc" });
  const firstSet = Math.min(...plans.map((plan) => plan.firstSetAt.toMillis()));
  const lowEnd = instant(Math.max(firstSet, cutoff.minus({ days: LOOKBACK_DAYS }).toMillis()));
  // A period lasts its plan's interval (a day more for month ends and time-zone shifts).
  const lowStart = instant(
    Math.min(
      ...plans.map((plan) =>
        lowEnd
          .minus({ [`${plan.interval.unit}s`]: plan.interval.count })
          .minus({ days: 1 })
          .toMillis(),
      ),
    ),
  );
  return { planIds: plans.map((plan) => plan.id), cutoff, lowEnd, lowStart };
}

export interface DuePeriod {
  readonly periodChargeId: string;
  readonly subscriptionId: string;
  readonly customerId: string;
  readonly planId: string;
  readonly currency: string;
  readonly start: DateTime;
  readonly end: DateTime;
  /** Charged through a recurring card token, whose amount cannot vary: not billed (billing/fixed-amount.ts, in SQL). */
  readonly recurringToken: boolean;
}

export interface DueCursor {
  readonly end: string;
  readonly id: string;
}

/** A period charge's row as the locking queries select it (this file's, open-periods.ts's). */
export interface PeriodRow {
  id: string;
  subscription_id: string;
  customer_id: string;
  plan_id: string;
  currency: string;
  period_start: string;
  period_end: string;
  recurring_token: boolean;
}

export function duePeriodOf(row: PeriodRow): DuePeriod {
  return {
    periodChargeId: row.id,
    subscriptionId: row.subscription_id,
    customerId: row.customer_id,
    planId: row.plan_id,
    currency: row.currency,
    start: pgInstant(row.period_start),
    end: pgInstant(row.period_end),
    recurringToken: row.recurring_token,
  };
}

/** Locks and returns the next batch of due periods after `after`; the cursor of the last one. */
export async function lockDuePeriods(
  tx: SqlTx,
  window: ScanWindow,
  options: { batchSize: number; after: DueCursor | undefined },
): Promise<{ periods: DuePeriod[]; cursor: DueCursor | undefined }> {
  const iso = (at: DateTime) => at.toUTC().toISO();
  const plans = [...window.planIds];
  const rows = await tx<PeriodRow[]>`
    select c.id, c.subscription_id, s.customer_id, c.plan_id, c.currency, c.period_start, c.period_end,
           (s.collection_method = 'charge_automatically'
            and coalesce(pm.kind, sp.billing_mode) = 'recurring') as recurring_token
    from subscriptions s
    join charges c on c.subscription_id = s.id and c.kind = 'period'
    join plans sp on sp.id = s.plan_id
    left join payment_methods pm on pm.id = s.payment_method_id
    where s.status <> 'canceled'
      and s.id in (
        select id from subscriptions where plan_id = any(${plans}::uuid[])
        union
        select subscription_id from plan_changes
        where status = 'applied' and from_plan_id = any(${plans}::uuid[])
          and effective_at > ${iso(window.lowStart)}::timestamptz
      )
      and c.plan_id = any(${plans}::uuid[])
      and c.period_start > ${iso(window.lowStart)}::timestamptz
      and c.period_end > ${iso(window.lowEnd)}::timestamptz
      and c.period_end <= ${iso(window.cutoff)}::timestamptz
      and exists (
        select 1 from plan_usage_prices up where up.plan_id = c.plan_id and up.created_at < c.period_end)
      and not exists (
        select 1 from charges u
        where u.subscription_id = c.subscription_id and u.period_start = c.period_start
          and charge_kind_is_usage(u.kind) and u.usage_part is null)
      and (c.period_end, c.id) > (${options.after?.end ?? "-infinity"}::timestamptz,
                                  ${options.after?.id ?? "00000000-0000-0000-0000-000000000000"}::uuid)
    order by c.period_end, c.id
    limit ${options.batchSize}
    for update of s skip locked`;
  const last = rows.at(-1);
  return {
    periods: rows.map(duePeriodOf),
    cursor: last && { end: last.period_end, id: last.id },
  };
}
