import type { DateTime } from "luxon";
import type { BilledUsage } from "../billing/index.js";
import { pgInstant, pgInteger, type SqlRunner } from "../db/index.js";

/**
 * Rule: what a period's parts (usage charges billed before it closed, usage_part 1, 2, …) billed,
 * per meter, from their stored lines, and the number of its last part. A canceled part collected
 * nothing, so its usage is billed again by the next part or the close; it still holds its number.
 * One query for any number of periods.
 */

export interface BilledParts {
  /** The last part's number; 0 when the period has none. */
  readonly lastPart: number;
  /** Keyed by meter id. */
  readonly byMeter: ReadonlyMap<string, BilledUsage>;
}

export interface PeriodKey {
  readonly subscriptionId: string;
  readonly start: DateTime;
}

const NONE: BilledParts = { lastPart: 0, byMeter: new Map() };

export const periodKey = (subscriptionId: string, start: DateTime) =>
  `${subscriptionId.toLowerCase()} ${start.toMillis()}`;

interface Row {
  subscription_id: string;
  period_start: string;
  last_part: number;
  meter_id: string | null;
  quantity: string | null;
  amount_minor: string | null;
}

export async function billedParts(
  sql: SqlRunner,
  periods: readonly PeriodKey[],
): Promise<(key: PeriodKey) => BilledParts> {
  const found = new Map<string, { lastPart: number; byMeter: Map<string, BilledUsage> }>();
  if (periods.length > 0) {
    const rows = await sql<Row[]>`
      with parts as (
        select c.id, c.subscription_id, c.period_start, c.status,
               max(c.usage_part) over (partition by c.subscription_id, c.period_start) as last_part
        from charges c
        join unnest(${periods.map((p) => p.subscriptionId)}::uuid[],
                    ${periods.map((p) => p.start.toUTC().toISO())}::text[]::timestamptz[]) as k(subscription_id, period_start)
          on c.subscription_id = k.subscription_id and c.period_start = k.period_start
        where c.usage_part is not null)
      select p.subscription_id::text, p.period_start, max(p.last_part) as last_part, l.ref_id::text as meter_id,
             sum(l.quantity)::text as quantity, sum(l.amount_minor)::text as amount_minor
      from parts p
      left join charge_lines l on l.charge_id = p.id and p.status <> 'canceled'
      group by 1, 2, 4`;
    for (const row of rows) {
      const key = periodKey(row.subscription_id, pgInstant(row.period_start));
      const entry = found.get(key) ?? { lastPart: row.last_part, byMeter: new Map() };
      if (row.meter_id !== null) {
        entry.byMeter.set(row.meter_id, {
          quantity: pgInteger(row.quantity ?? "0"),
          amountMinor: pgInteger(row.amount_minor ?? "0"),
        });
      }
      found.set(key, entry);
    }
  }
  return (key) => found.get(periodKey(key.subscriptionId, key.start)) ?? NONE;
}
