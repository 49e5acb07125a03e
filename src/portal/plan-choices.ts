import { and, inArray, isNull, or } from "drizzle-orm";
import { priceModelOf } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { plans } from "../db/schema/index.js";
import { type ChangingSubscription, type PlanFacts, planChangeRefusal } from "../plan-changes/index.js";
import { periodPriceMinor } from "../pricing/index.js";

/**
 * Plans the portal offers each subscription to move to. Rule: only changes changePlan would take,
 * as its own rules say (plan-changes/refusals.ts): not archived, the subscription's currency, not
 * its own plan, a trialing or active subscription, and for a card saved as a recurring token only a
 * plan of the amount it was enrolled for and the same interval. One query for the whole account;
 * cheapest first.
 */
export interface SubscriptionChangingPlan extends ChangingSubscription {
  readonly id: string;
  readonly planId: string;
  readonly currency: string;
}

export async function plansToChangeTo(
  ctx: Pick<EngineContext, "db">,
  subscriptions: readonly SubscriptionChangingPlan[],
): Promise<Map<string, PlanFacts[]>> {
  if (subscriptions.length === 0) return new Map();
  const rows = await ctx.db
    .select()
    .from(plans)
    .where(
      or(
        and(
          isNull(plans.archivedAt),
          inArray(plans.currency, [...new Set(subscriptions.map((s) => s.currency))]),
        ),
        inArray(
          plans.id,
          subscriptions.map((s) => s.planId),
        ),
      ),
    )
    .orderBy(plans.amountMinor, plans.name);
  const facts = rows.map(
    (row): PlanFacts => ({
      id: row.id,
      name: row.name,
      // Offered at quantity 1: a change the portal makes keeps the subscription's quantity, and
      // the rules it asks (recurring cards are on flat plans) do not turn on it.
      price: priceModelOf(row),
      quantity: 1,
      amountMinor: periodPriceMinor(row, 1),
      currency: row.currency,
      interval: { unit: row.intervalUnit, count: row.intervalCount },
      billingMode: row.billingMode,
      archived: row.archivedAt !== null,
    }),
  );
  const byId = new Map(facts.map((plan) => [plan.id, plan]));
  return new Map(
    subscriptions.map((sub) => {
      const from = byId.get(sub.planId)!;
      return [sub.id, facts.filter((plan) => planChangeRefusal(sub, from, plan) === null)];
    }),
  );
}
