import type { DateTime } from "luxon";
import { type PriceModelName, priceGrowsWithUsage, type UsagePrice } from "../billing/index.js";
import { pgInstant, type SqlRunner } from "../db/index.js";
import { priceModelOfColumns } from "../pricing/index.js";

/**
 * Rule: the usage prices that bill a period are its plan's prices set (created_at, billing clock)
 * before the period ended; a price set later bills the periods after. Prices are read in one query
 * for any number of plans, their tiers checked (a malformed row throws, never prices).
 */

export interface DatedUsagePrice extends UsagePrice {
  /** Billing clock, epoch milliseconds. */
  readonly setAt: number;
  /** May be billed before its period closes: neither price nor meter value falls as usage grows. */
  readonly billableInParts: boolean;
}

interface Row {
  plan_id: string;
  meter_id: string;
  code: string;
  name: string;
  aggregation: string;
  price_model: PriceModelName;
  amount_minor: string;
  tiers: unknown;
  package_size: number | null;
  created_at: string;
}

export async function usagePricesOfPlans(
  sql: SqlRunner,
  planIds: readonly string[],
): Promise<Map<string, DatedUsagePrice[]>> {
  const byPlan = new Map<string, DatedUsagePrice[]>();
  if (planIds.length === 0) return byPlan;
  const rows = await sql<Row[]>`
    select up.plan_id, up.meter_id, m.code, m.name, m.aggregation::text, up.price_model, up.amount_minor, up.tiers,
           up.package_size, up.created_at
    from plan_usage_prices up join meters m on m.id = up.meter_id
    where up.plan_id = any(${[...planIds]}::uuid[])`;
  for (const row of rows) {
    const prices = byPlan.get(row.plan_id) ?? [];
    const price = priceModelOfColumns(row);
    prices.push({
      meterId: row.meter_id,
      meterCode: row.code,
      meterName: row.name,
      price,
      setAt: pgInstant(row.created_at).toMillis(),
      // A meter's last value can fall; every other aggregation only grows as events arrive.
      billableInParts: row.aggregation !== "last" && priceGrowsWithUsage(price),
    });
    byPlan.set(row.plan_id, prices);
  }
  return byPlan;
}

/** The prices that bill a period ending at `end`. */
export function pricesForPeriod(prices: readonly DatedUsagePrice[], end: DateTime): DatedUsagePrice[] {
  return prices.filter((price) => price.setAt < end.toMillis());
}
