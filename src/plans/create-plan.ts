import { type PriceModel, parsePlanInput, tiersToStored } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { plans } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { type StoredPlan, toStoredPlan } from "./plan-record.js";

/** The price model's own columns: tiers (jsonb, minor units) and package_size, null when it has none. */
function priceColumns(price: PriceModel) {
  return {
    priceModel: price.model,
    tiers: price.model === "tiered" || price.model === "volume" ? tiersToStored(price.tiers) : null,
    packageSize: price.model === "package" ? price.packageSize : null,
  };
}

export interface CreatePlanOptions {
  /** Who asks, as in events ("api:<key id>", "cli", …); default "system". */
  actor?: string;
}

/**
 * Stores a new plan from a create-plan body (snake_case, as the API receives it). Throws
 * PlanInputError naming every bad field; nothing is written then. The currency must be one the
 * gateway account takes (GATEWAY_CURRENCIES): a plan in another could never be enrolled, since the
 * gateway refuses its checkout. The price model is stored with its own columns (tiers, package_size)
 * beside amount_minor, which is 0 for tiered and volume plans.
 */
export async function createPlan(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
  input: unknown,
  { actor = "system" }: CreatePlanOptions = {},
): Promise<StoredPlan> {
  const plan = parsePlanInput(input, { currencies: ctx.config.GATEWAY_CURRENCIES });
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(plans)
      .values({
        name: plan.name,
        amountMinor: plan.amount.minor,
        currency: plan.amount.currency,
        ...priceColumns(plan.price),
        intervalUnit: plan.intervalUnit,
        intervalCount: plan.intervalCount,
        trialDays: plan.trialDays,
        productId: plan.productId ?? null,
        billingMode: plan.billingMode,
        collectionMethod: plan.collectionMethod,
        trialWithoutCard: plan.trialWithoutCard,
      })
      .returning();
    if (!row) throw new Error("plan was not stored");
    await recordEvent(tx, {
      type: "plan.created",
      actor,
      occurredAt: ctx.clock.now(),
      data: {
        plan_id: row.id,
        name: row.name,
        amount_minor: row.amountMinor,
        currency: row.currency,
        price_model: row.priceModel,
        tiers: row.tiers,
        package_size: row.packageSize,
        interval: row.intervalUnit,
        interval_count: row.intervalCount,
        trial_days: row.trialDays,
        billing_mode: row.billingMode,
        collection_method: row.collectionMethod,
        trial_without_card: row.trialWithoutCard,
      },
    });
    return toStoredPlan(row);
  });
}
