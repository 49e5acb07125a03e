import { and, eq, isNull, ne } from "drizzle-orm";
import type { EngineContext } from "../context/index.js";
import { plans } from "../db/schema/index.js";

/**
 * Rule: a customer may move only to a plan that takes subscriptions (not archived) in the
 * subscription's currency, so a change never crosses currencies (plan_changes refuses that too).
 */
/** Plans a subscription may move to in the portal: not archived, same currency, not its own. */
export function plansToChangeTo(ctx: Pick<EngineContext, "db">, planId: string, currency: string) {
  return ctx.db
    .select({
      id: plans.id,
      name: plans.name,
      amountMinor: plans.amountMinor,
      currency: plans.currency,
      intervalUnit: plans.intervalUnit,
      intervalCount: plans.intervalCount,
    })
    .from(plans)
    .where(and(isNull(plans.archivedAt), eq(plans.currency, currency), ne(plans.id, planId)))
    .orderBy(plans.amountMinor, plans.name);
}
