import { eq } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { sqlOf } from "../db/index.js";
import { features, planFeatures } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { announcePlanChange } from "./announce-plans.js";
import { dropAllEntitlements } from "./cache.js";
import { type StoredFeature, toStoredFeature } from "./feature-record.js";
import { policyOf } from "./settings.js";

/**
 * Rule: an archived feature is granted by no plan from now on (it stays attached, for the record,
 * and its code stays taken); archiving an archived feature changes nothing. As coupons are, it is
 * archived, never deleted: events name it. Recorded as `feature.archived`, and every customer on a
 * plan that included it is told their new entitlements, in the same transaction. null when there is
 * no such feature.
 */
export async function archiveFeature(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
  { code, actor }: { code: string; actor: string },
): Promise<StoredFeature | null> {
  const now = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(features).where(eq(features.code, code)).for("update");
    if (!row) return null;
    if (row.archivedAt) return { feature: toStoredFeature(row), changed: false };
    const [archived] = await tx
      .update(features)
      .set({ archivedAt: now.toJSDate() })
      .where(eq(features.id, row.id))
      .returning();
    if (!archived) throw new Error(`feature ${row.code} was not archived`);
    const refs = { feature_id: row.id, feature: row.code };
    await recordEvent(tx, { type: "feature.archived", actor, occurredAt: now, data: refs });
    const onPlans = await tx
      .select({ planId: planFeatures.planId })
      .from(planFeatures)
      .where(eq(planFeatures.featureId, row.id));
    await announcePlanChange(
      sqlOf(tx),
      onPlans.map((plan) => plan.planId),
      now,
      policyOf(ctx.config),
      { actor, causedBy: [{ event: "feature.archived", ...refs }] },
    );
    return { feature: toStoredFeature(archived), changed: true };
  });
  if (result?.changed) dropAllEntitlements();
  return result?.feature ?? null;
}
