import { and, eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { planUsagePrices } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { UsagePriceError } from "./errors.js";
import { findMeter, findPlan } from "./find-targets.js";
import { type StoredUsagePrice, toStoredUsagePrice } from "./usage-price-record.js";

/**
 * Rule: removing a plan's price of a meter stops billing that meter for every period not billed
 * yet (usage charges already created keep their lines). A plan that does not price the meter is
 * refused (`usage_price_not_found`). Allowed whatever the plan's billing_mode, archived meters
 * included: it only takes an amount away. Recorded as `plan.usage_price_removed`.
 */
export async function removeUsagePrice(
  ctx: Pick<EngineContext, "db" | "clock">,
  args: { planId: string; meter: string; actor?: string },
): Promise<StoredUsagePrice> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const plan = await findPlan(tx, args.planId);
    const meter = await findMeter(tx, args.meter);
    const [row] = await tx
      .delete(planUsagePrices)
      .where(and(eq(planUsagePrices.planId, plan.id), eq(planUsagePrices.meterId, meter.id)))
      .returning();
    if (!row) {
      throw new UsagePriceError(
        "usage_price_not_found",
        `plan ${plan.id} does not price meter ${meter.code}`,
        { plan_id: plan.id, meter: meter.code },
        "meter",
      );
    }
    await recordEvent(tx, {
      type: "plan.usage_price_removed",
      actor: args.actor ?? "system",
      occurredAt: now,
      data: { plan_id: plan.id, meter_id: meter.id, meter: meter.code },
    });
    return toStoredUsagePrice(row, meter, plan.currency);
  });
}
