import { getTableColumns, sql } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { planUsagePrices } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { recurringPlanRefusal, UsagePriceError } from "./errors.js";
import { findMeter, findPlan } from "./find-targets.js";
import { parseUsagePriceInput } from "./usage-price-input.js";
import { priceColumns, type StoredUsagePrice, toStoredUsagePrice } from "./usage-price-record.js";

/**
 * Rule: a plan prices a meter's usage once: setting it again replaces the price, and its
 * created_at (billing clock) stays, so which periods it bills does not change. A plan with
 * billing_mode recurring is refused (`card_amount_fixed`): its card tokens are charged a fixed
 * amount. An archived meter takes no new events, so no price either (`meter_archived`). A bad body
 * throws UsagePriceInputError naming each field. Recorded as `plan.usage_price_set`.
 */
export async function setUsagePrice(
  ctx: Pick<EngineContext, "db" | "clock">,
  args: { planId: string; meter: string; input: unknown; actor?: string },
): Promise<{ usagePrice: StoredUsagePrice; created: boolean }> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const plan = await findPlan(tx, args.planId);
    if (plan.billingMode === "recurring") throw recurringPlanRefusal(plan.id);
    const meter = await findMeter(tx, args.meter);
    if (meter.archivedAt) {
      throw new UsagePriceError(
        "meter_archived",
        `meter ${meter.code} is archived: it takes no new events, so it cannot be priced`,
        { meter: meter.code },
        "meter",
      );
    }
    const { amountMinor, price } = parseUsagePriceInput(args.input, plan.currency);
    const at = now.toJSDate();
    const columns = { amountMinor, ...priceColumns(price), updatedAt: at };
    const [stored] = await tx
      .insert(planUsagePrices)
      .values({ planId: plan.id, meterId: meter.id, ...columns, createdAt: at })
      .onConflictDoUpdate({ target: [planUsagePrices.planId, planUsagePrices.meterId], set: columns })
      // xmax is 0 on a row this statement inserted, not on one it updated.
      .returning({ ...getTableColumns(planUsagePrices), created: sql<boolean>`xmax = 0` });
    if (!stored) throw new Error("usage price was not stored");
    const { created, ...row } = stored;
    await recordEvent(tx, {
      type: "plan.usage_price_set",
      actor: args.actor ?? "system",
      occurredAt: now,
      data: {
        plan_id: plan.id,
        meter_id: meter.id,
        meter: meter.code,
        created,
        price_model: row.priceModel,
        amount_minor: row.amountMinor,
        currency: plan.currency,
        tiers: row.tiers,
        package_size: row.packageSize,
      },
    });
    return { usagePrice: toStoredUsagePrice(row, meter, plan.currency), created };
  });
}
