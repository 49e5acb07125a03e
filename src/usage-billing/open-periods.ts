import type { DateTime } from "luxon";
import type { Row as AnyRow, PendingQuery } from "postgres";
import { pgInteger, type SqlRunner, type SqlTx } from "../db/index.js";
import { type DuePeriod, duePeriodOf, type PeriodRow } from "./due-periods.js";

/**
 * Rule: the periods a spending threshold watches (progressive billing). A subscription that pays
 * (active, past_due), on a period whose charge's plan has a usage threshold and prices usage, in its
 * current period (started, not yet ended), is watched; one charged through a recurring card token is
 * not (its amount is fixed by the gateway; billing/fixed-amount.ts, in SQL as in due-periods.ts).
 * Subscriptions are locked FOR UPDATE SKIP LOCKED in id order, batch by batch, so concurrent ticks
 * split the work and a part is priced against the usage its own transaction reads. With no plan
 * that has a threshold, one query on plans and nothing else.
 */

export interface WatchedPeriod extends DuePeriod {
  readonly thresholdMinor: number;
}

/** The plans with a usage threshold that price usage; the cheap path's one query. */
/** Plans with a spending threshold and usage prices: no part is billed without one. */
export function thresholdPlans(sql: SqlRunner): PendingQuery<AnyRow[]> {
  return sql`
    from plans p
    where p.usage_threshold_minor is not null
      and exists (select 1 from plan_usage_prices up where up.plan_id = p.id)`;
}

export async function thresholdPlanIds(sql: SqlRunner): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select p.id ${thresholdPlans(sql)}`;
  return rows.map((row) => row.id);
}

interface Row extends Omit<PeriodRow, "recurring_token"> {
  usage_threshold_minor: string;
}

export async function lockWatchedPeriods(
  tx: SqlTx,
  planIds: readonly string[],
  options: { now: DateTime; batchSize: number; after: string | undefined },
): Promise<WatchedPeriod[]> {
  const now = options.now.toUTC().toISO();
  const rows = await tx<Row[]>`
    select c.id, s.id as subscription_id, s.customer_id, c.plan_id, c.currency, c.period_start, c.period_end,
           p.usage_threshold_minor::text
    from subscriptions s
    join charges c on c.subscription_id = s.id and c.kind = 'period' and c.period_start = s.current_period_start
    join plans p on p.id = c.plan_id
    join plans sp on sp.id = s.plan_id
    left join payment_methods pm on pm.id = s.payment_method_id
    where s.plan_id = any(${[...planIds]}::uuid[])
      and c.plan_id = any(${[...planIds]}::uuid[])
      and s.status in ('active', 'past_due')
      and c.period_start <= ${now}::timestamptz and c.period_end > ${now}::timestamptz
      and not (s.collection_method = 'charge_automatically'
               and coalesce(pm.kind, sp.billing_mode) = 'recurring')
      and s.id > ${options.after ?? "00000000-0000-0000-0000-000000000000"}::uuid
    order by s.id
    limit ${options.batchSize}
    for update of s skip locked`;
  return rows.map((row) => ({
    // Never charged through a recurring card token: the query leaves those out.
    ...duePeriodOf({ ...row, recurring_token: false }),
    thresholdMinor: pgInteger(row.usage_threshold_minor),
  }));
}
