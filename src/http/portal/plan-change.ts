import { isLive } from "../../billing/index.js";
import type { EngineContext } from "../../context/index.js";
import { changePlan, PlanChangeError } from "../../plan-changes/index.js";
import { type CustomerAccount, type OwnSubscription, plansToChangeTo } from "../../portal/index.js";
import type { PlanChoice } from "./account-page.js";
import { type ActionOutcome, PORTAL_ACTOR } from "./actions.js";

/**
 * Changing plan in the portal, offered only when PORTAL_PLAN_CHANGES=true. Rules: the plan must be
 * one the page offered (portal/plan-choices.ts), checked again on the POST; the change is billed as the merchant's PRORATION_BEHAVIOR says (changePlan's default),
 * and its refusals (an open charge, a scheduled cancellation, …) become a notice.
 */

export async function planChoicesFor(
  ctx: EngineContext,
  account: CustomerAccount,
): Promise<Map<string, PlanChoice[]>> {
  const choices = new Map<string, PlanChoice[]>();
  for (const sub of account.subscriptions) {
    if (isLive(sub.status) && !sub.cancelAtPeriodEnd) {
      choices.set(sub.id, await plansToChangeTo(ctx, sub));
    }
  }
  return choices;
}

export async function changePlanAction(
  ctx: EngineContext,
  sub: OwnSubscription,
  planId: unknown,
): Promise<ActionOutcome> {
  if (!isLive(sub.status) || sub.cancelAtPeriodEnd) return { notice: "refused" };
  const offered = await plansToChangeTo(ctx, sub);
  if (typeof planId !== "string" || !offered.some((plan) => plan.id === planId)) return { notice: "refused" };
  try {
    const result = await changePlan(ctx, { subscriptionId: sub.id, planId, actor: PORTAL_ACTOR });
    return { notice: result.status === "applied" ? "plan_changed" : "plan_scheduled" };
  } catch (error) {
    if (error instanceof PlanChangeError) return { notice: "refused" };
    throw error;
  }
}
