import { and, eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { sqlOf } from "../db/index.js";
import { planFeatures } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { announcePlanChange } from "./announce-plans.js";
import { dropAllEntitlements } from "./cache.js";
import { FeatureError } from "./errors.js";
import type { StoredFeature } from "./feature-record.js";
import { planAndFeature } from "./plan-feature-refs.js";
import { policyOf } from "./settings.js";

/**
 * Rule: taking a feature off a plan that does not include it is refused (`plan_feature_not_found`),
 * so a typo is not mistaken for success. The removal is recorded (`plan.feature_removed`) and every
 * customer on the plan is told their new entitlements (announce-plans.ts), in the same transaction.
 */
export async function unsetPlanFeature(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
  input: { planId: string; code: string; actor: string },
): Promise<{ planId: string; feature: StoredFeature }> {
  const now = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    const { planId, feature } = await planAndFeature(tx, input.planId, input.code);
    const refs = { plan_id: planId, feature: feature.code };
    const removed = await tx
      .delete(planFeatures)
      .where(and(eq(planFeatures.planId, planId), eq(planFeatures.featureId, feature.id)))
      .returning({ planId: planFeatures.planId });
    if (removed.length === 0) {
      throw new FeatureError(
        "plan_feature_not_found",
        `plan ${planId} does not include feature ${feature.code}`,
        refs,
      );
    }
    await recordEvent(tx, { type: "plan.feature_removed", actor: input.actor, occurredAt: now, data: refs });
    await announcePlanChange(sqlOf(tx), [planId], now, policyOf(ctx.config), {
      actor: input.actor,
      causedBy: [{ event: "plan.feature_removed", ...refs }],
    });
    return { planId, feature };
  });
  dropAllEntitlements();
  return result;
}
