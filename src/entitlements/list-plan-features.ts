import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { features, planFeatures, plans } from "../db/schema/index.js";
import { type StoredPlanFeature, toStoredFeature } from "./feature-record.js";

/**
 * Rule: a plan's features by code, archived ones included (marked by their feature's archived_at:
 * they stay attached but grant nothing); null when there is no such plan.
 */
export async function listPlanFeatures(
  ctx: Pick<EngineContext, "db">,
  planId: string,
): Promise<StoredPlanFeature[] | null> {
  if (!z.uuid().safeParse(planId).success) return null;
  const [plan] = await ctx.db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  if (!plan) return null;
  const rows = await ctx.db
    .select({ feature: features, limit: planFeatures.limitValue, createdAt: planFeatures.createdAt })
    .from(planFeatures)
    .innerJoin(features, eq(features.id, planFeatures.featureId))
    .where(eq(planFeatures.planId, planId))
    .orderBy(asc(features.code));
  return rows.map((row) => ({
    planId,
    feature: toStoredFeature(row.feature),
    limit: row.limit,
    createdAt: row.createdAt,
  }));
}
