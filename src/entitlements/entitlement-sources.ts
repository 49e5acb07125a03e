import type { SubscriptionState } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";

/**
 * Rule: where entitlements come from, for a person reading them: each subscription of the answer
 * (read-entitlements.ts decides which grant) with its status, its plan and the codes of that plan's
 * features that are not archived, as load-entitlements.ts reads the grants. In the order given.
 */
export interface EntitlementSource {
  readonly subscriptionId: string;
  readonly status: SubscriptionState;
  readonly planId: string;
  readonly planName: string;
  readonly features: readonly string[];
}

export async function entitlementSources(
  ctx: Pick<EngineContext, "db">,
  subscriptionIds: readonly string[],
): Promise<EntitlementSource[]> {
  if (subscriptionIds.length === 0) return [];
  const rows = await ctx.db.$client<
    { id: string; status: SubscriptionState; plan_id: string; plan_name: string; features: string[] }[]
  >`
    select s.id, s.status, s.plan_id, p.name as plan_name,
      array(select f.code from plan_features pf join features f on f.id = pf.feature_id
            where pf.plan_id = s.plan_id and f.archived_at is null order by f.code) as features
    from unnest(${[...subscriptionIds]}::text[]::uuid[]) with ordinality as given(id, position)
    join subscriptions s on s.id = given.id
    join plans p on p.id = s.plan_id
    order by given.position`;
  return rows.map((row) => ({
    subscriptionId: row.id,
    status: row.status,
    planId: row.plan_id,
    planName: row.plan_name,
    features: row.features,
  }));
}
