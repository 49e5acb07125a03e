import type { EngineContext } from "../context/index.js";
import { pgInstant, sqlOf } from "../db/index.js";
import { recordEvent } from "../events/index.js";
import { announcePlanChange } from "./announce-plans.js";
import { dropAllEntitlements } from "./cache.js";
import { FeatureError } from "./errors.js";
import type { StoredPlanFeature } from "./feature-record.js";
import { planAndFeature } from "./plan-feature-refs.js";
import { policyOf } from "./settings.js";

/**
 * Rule: a plan includes a feature once: a limit feature with its limit (a whole number from 0, or
 * null: unlimited), a switch with none. A limit sent for a switch is refused (`limit_not_allowed`),
 * as is a limit feature without one (`limit_required`), both naming `limit`; an archived feature is
 * granted by no plan, so it cannot be added (`feature_archived`). Setting what is already set
 * changes nothing and tells nobody; a change is recorded (`plan.feature_set`) and every customer
 * on the plan is told their new entitlements (announce-plans.ts), in the same transaction.
 */
export interface SetPlanFeatureInput {
  planId: string;
  code: string;
  /** Absent for a switch; a number or null (unlimited) for a limit. */
  limit?: number | null;
  actor: string;
}

export async function setPlanFeature(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
  input: SetPlanFeatureInput,
): Promise<StoredPlanFeature & { changed: boolean }> {
  const now = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx) => {
    const { planId, feature } = await planAndFeature(tx, input.planId, input.code);
    const refs = { plan_id: planId, feature: feature.code, kind: feature.kind };
    if (feature.archivedAt) {
      throw new FeatureError(
        "feature_archived",
        `feature ${feature.code} is archived; no plan can grant it`,
        refs,
      );
    }
    if (feature.kind === "boolean" && input.limit !== undefined) {
      throw new FeatureError(
        "limit_not_allowed",
        `feature ${feature.code} is a switch (kind boolean): it takes no limit; send {}`,
        refs,
        "limit",
      );
    }
    if (feature.kind === "limit" && input.limit === undefined) {
      throw new FeatureError(
        "limit_required",
        `feature ${feature.code} is a limit: send limit, a whole number from 0 up, or null for unlimited`,
        refs,
        "limit",
      );
    }
    const limit = input.limit ?? null;
    const sql = sqlOf(tx);
    const [written] = await sql<{ created_at: string }[]>`
      insert into plan_features (plan_id, feature_id, limit_value)
      values (${planId}::uuid, ${feature.id}::uuid, ${limit}::bigint)
      on conflict (plan_id, feature_id) do update set limit_value = excluded.limit_value
        where plan_features.limit_value is distinct from excluded.limit_value
      returning created_at`;
    const changed = written !== undefined;
    const [row] = await sql<{ created_at: string }[]>`
      select created_at from plan_features where plan_id = ${planId}::uuid and feature_id = ${feature.id}::uuid`;
    if (changed) {
      await recordEvent(tx, {
        type: "plan.feature_set",
        actor: input.actor,
        occurredAt: now,
        data: { ...refs, limit },
      });
      await announcePlanChange(sql, [planId], now, policyOf(ctx.config), {
        actor: input.actor,
        causedBy: [{ event: "plan.feature_set", ...refs }],
      });
    }
    return { planId, feature, limit, createdAt: pgInstant(row!.created_at).toJSDate(), changed };
  });
  if (result.changed) dropAllEntitlements();
  return result;
}
