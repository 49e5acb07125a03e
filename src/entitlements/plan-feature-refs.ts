import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../db/index.js";
import { features, plans } from "../db/schema/index.js";
import { FeatureError } from "./errors.js";
import { type StoredFeature, toStoredFeature } from "./feature-record.js";

/**
 * Rule: a plan-feature request names an existing plan (`plan_not_found` otherwise) and an existing
 * feature by its code (`feature_not_found`), archived or not; the plan is looked up first.
 */
export async function planAndFeature(
  tx: Tx,
  planId: string,
  code: string,
): Promise<{ planId: string; feature: StoredFeature }> {
  const [plan] = z.uuid().safeParse(planId).success
    ? await tx.select({ id: plans.id }).from(plans).where(eq(plans.id, planId))
    : [];
  if (!plan) throw new FeatureError("plan_not_found", `no plan with id ${planId}`, { plan_id: planId });
  const [row] = await tx.select().from(features).where(eq(features.code, code));
  if (!row) throw new FeatureError("feature_not_found", `no feature with code ${code}`, { feature: code });
  return { planId: plan.id, feature: toStoredFeature(row) };
}
