import { eq } from "drizzle-orm";
import { byMeterCode } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { meters, planUsagePrices } from "../db/schema/index.js";
import { findPlan } from "./find-targets.js";
import { type StoredUsagePrice, toStoredUsagePrice } from "./usage-price-record.js";

/** Rule: a plan's usage prices in meter code order, the order its usage charges list them. */
export async function listUsagePrices(
  ctx: Pick<EngineContext, "db">,
  planId: string,
): Promise<StoredUsagePrice[]> {
  const plan = await findPlan(ctx.db, planId);
  const rows = await ctx.db
    .select({ price: planUsagePrices, meter: meters })
    .from(planUsagePrices)
    .innerJoin(meters, eq(meters.id, planUsagePrices.meterId))
    .where(eq(planUsagePrices.planId, plan.id));
  // Sorted here, as priceUsage sorts (code units), not by the database's collation.
  return rows.map(({ price, meter }) => toStoredUsagePrice(price, meter, plan.currency)).sort(byMeterCode);
}
