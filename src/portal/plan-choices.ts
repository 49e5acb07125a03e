import { and, eq, isNull, ne } from "drizzle-orm";
import { type IntervalUnit, sameInterval } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { plans } from "../db/schema/index.js";

/**
 * Plans a subscription may move to in the portal. Rule: only changes changePlan would take are
 * offered: a plan that takes subscriptions (not archived), in the subscription's currency, not its
 * own; and, for a card saved as a recurring token (the gateway charges it only the amount it was
 * enrolled for), only a plan of the same price and interval.
 */
export interface ChangingSubscription {
  readonly planId: string;
  readonly currency: string;
  readonly amountMinor: number;
  readonly intervalUnit: IntervalUnit;
  readonly intervalCount: number;
  readonly cardKind: "recurring" | "autosave" | null;
}

export async function plansToChangeTo(ctx: Pick<EngineContext, "db">, sub: ChangingSubscription) {
  const offered = await ctx.db
    .select({
      id: plans.id,
      name: plans.name,
      amountMinor: plans.amountMinor,
      currency: plans.currency,
      intervalUnit: plans.intervalUnit,
      intervalCount: plans.intervalCount,
    })
    .from(plans)
    .where(and(isNull(plans.archivedAt), eq(plans.currency, sub.currency), ne(plans.id, sub.planId)))
    .orderBy(plans.amountMinor, plans.name);
  if (sub.cardKind !== "recurring") return offered;
  const interval = { unit: sub.intervalUnit, count: sub.intervalCount };
  return offered.filter(
    (plan) =>
      plan.amountMinor === sub.amountMinor &&
      sameInterval(interval, { unit: plan.intervalUnit, count: plan.intervalCount }),
  );
}
