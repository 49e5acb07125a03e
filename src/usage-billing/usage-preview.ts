import type { DateTime } from "luxon";
import { type ChargeLine, lessBilled, priceUsage, subtotalOf } from "../billing/index.js";
import { pgInstant, type SqlRunner } from "../db/index.js";
import { billedParts } from "./billed-parts.js";
import { pricesForPeriod, usagePricesOfPlans } from "./prices-of-plans.js";
import { usageOfPeriods } from "./usage-of-periods.js";

/**
 * Rule: the usage of a subscription's current period so far, priced as the tick will price it once
 * the period closes (the same prices, aggregation and priceUsage), and when that will be: the
 * period's end plus USAGE_GRACE_HOURS, less what parts of the period already billed (progressive
 * billing), as the closing charge will be. The period is the one its current period charge bills, on
 * that charge's plan; null when there is none or its plan prices no usage. Reads only; the
 * prices may still change, and events still come, before the period closes.
 */

export interface UsagePreview {
  readonly periodStart: DateTime;
  readonly periodEnd: DateTime;
  readonly chargeAt: DateTime;
  readonly currency: string;
  readonly lines: readonly ChargeLine[];
  readonly totalMinor: number;
}

export async function usagePreview(
  sql: SqlRunner,
  subscriptionId: string,
  graceHours: number,
): Promise<UsagePreview | null> {
  const [row] = await sql<{ plan_id: string; currency: string; period_start: string; period_end: string }[]>`
    select c.plan_id, c.currency, c.period_start, c.period_end
    from subscriptions s
    join charges c on c.subscription_id = s.id and c.kind = 'period' and c.period_start = s.current_period_start
    where s.id = ${subscriptionId}`;
  if (!row) return null;
  const start = pgInstant(row.period_start);
  const end = pgInstant(row.period_end);
  const prices = pricesForPeriod((await usagePricesOfPlans(sql, [row.plan_id])).get(row.plan_id) ?? [], end);
  if (prices.length === 0) return null;
  const [[usage], billed] = await Promise.all([
    usageOfPeriods(sql, [{ subscriptionId, start, end }]),
    billedParts(sql, [{ subscriptionId, start }]),
  ]);
  const lines = lessBilled(priceUsage(prices, usage ?? new Map()), billed({ subscriptionId, start }).byMeter);
  return {
    periodStart: start,
    periodEnd: end,
    chargeAt: end.plus({ hours: graceHours }),
    currency: row.currency,
    lines,
    totalMinor: subtotalOf(lines),
  };
}
