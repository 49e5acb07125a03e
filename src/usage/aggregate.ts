import type { DateTime } from "luxon";
import type { Db } from "../db/index.js";

/**
 * Rule: the usage of many subscriptions over their own periods [start, end), per meter, in ONE
 * set-based query: `sum` of quantities, `count` of events, `max` quantity, `unique_count` of
 * distinct distinct_value, `last`: the quantity of the latest occurred_at (ties: the latest
 * received_at, then the greatest event id). Archived meters' events count. Every subscription asked
 * about has a map, empty when it recorded nothing; a meter with no event in the period is absent
 * (0 for sum, count and unique_count; no value for max and last). Results are whole numbers,
 * refused past 2^53-1 rather than rounded.
 */

export interface UsagePeriod {
  readonly subscriptionId: string;
  readonly start: DateTime | Date;
  readonly end: DateTime | Date;
}

const isoOf = (value: DateTime | Date): string =>
  value instanceof Date ? value.toISOString() : (value.toUTC().toISO() ?? String(value));

export async function usageForPeriods(
  db: Db,
  items: readonly UsagePeriod[],
): Promise<Map<string, Map<string, number>>> {
  const result = new Map<string, Map<string, number>>();
  for (const item of items) {
    const id = item.subscriptionId.toLowerCase();
    if (result.has(id)) throw new RangeError(`subscription ${id} is asked about twice; one period each`);
    result.set(id, new Map());
  }
  if (items.length === 0) return result;
  const rows = await db.$client<{ subscription_id: string; code: string; value: string | null }[]>`
    select p.subscription_id::text as subscription_id, m.code,
      (case m.aggregation
        when 'sum' then sum(e.quantity)
        when 'count' then count(*)
        when 'max' then max(e.quantity)
        when 'unique_count' then count(distinct e.distinct_value) filter (where m.aggregation = 'unique_count')
        when 'last' then (array_agg(e.quantity order by e.occurred_at desc, e.received_at desc, e.event_id desc)
                          filter (where m.aggregation = 'last'))[1]
      end)::text as value
    from unnest(
      ${items.map((i) => i.subscriptionId)}::uuid[],
      ${items.map((i) => isoOf(i.start))}::text[]::timestamptz[],
      ${items.map((i) => isoOf(i.end))}::text[]::timestamptz[]
    ) as p(subscription_id, period_start, period_end)
    join usage_events e
      on e.subscription_id = p.subscription_id and e.occurred_at >= p.period_start and e.occurred_at < p.period_end
    join meters m on m.id = e.meter_id
    group by p.subscription_id, m.id`;
  for (const row of rows) {
    if (row.value === null) continue;
    const value = Number(row.value);
    if (!Number.isSafeInteger(value)) {
      throw new RangeError(
        `usage of meter ${row.code} for subscription ${row.subscription_id} is ${row.value}, past 2^53-1`,
      );
    }
    result.get(row.subscription_id)?.set(row.code, value);
  }
  return result;
}
