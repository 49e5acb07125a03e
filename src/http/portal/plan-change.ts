import { z } from "zod";
import { isLive, MAX_QUANTITY } from "../../billing/index.js";
import type { EngineContext } from "../../context/index.js";
import { changePlan, PlanChangeError } from "../../plan-changes/index.js";
import { type CustomerAccount, type OwnSubscription, plansToChangeTo } from "../../portal/index.js";
import type { PlanChoice } from "./account-page.js";
import { type ActionOutcome, PORTAL_ACTOR } from "./actions.js";

/**
 * Changing plan in the portal, offered only when PORTAL_PLAN_CHANGES=true. Rules: the page offers
 * the plans changePlan would take (portal/plan-choices.ts), to a subscription without a pending
 * cancellation; the POST is changePlan's to refuse like any other request. The change is billed as
 * the merchant's PRORATION_BEHAVIOR says (changePlan's default), and a refusal (another plan than
 * those offered, an open charge, …) becomes a notice. Changing seats (PORTAL_SEAT_CHANGES=true,
 * on a plan priced by quantity) is the same changePlan with the quantity alone, billed the same way.
 */

export async function planChoicesFor(
  ctx: EngineContext,
  account: CustomerAccount,
): Promise<ReadonlyMap<string, PlanChoice[]>> {
  return plansToChangeTo(
    ctx,
    account.subscriptions.filter((sub) => isLive(sub.status) && !sub.cancelAtPeriodEnd),
  );
}

const planIdField = z.uuid();
/** A form's number arrives as text. */
const quantityField = z.coerce.number().int().min(1).max(MAX_QUANTITY);

export async function changePlanAction(
  ctx: EngineContext,
  sub: OwnSubscription,
  planId: unknown,
): Promise<ActionOutcome> {
  const plan = planIdField.safeParse(planId);
  if (!isLive(sub.status) || sub.cancelAtPeriodEnd || !plan.success) return { notice: "refused" };
  try {
    const result = await changePlan(ctx, { subscriptionId: sub.id, planId: plan.data, actor: PORTAL_ACTOR });
    return { notice: result.status === "applied" ? "plan_changed" : "plan_scheduled" };
  } catch (error) {
    if (error instanceof PlanChangeError) return { notice: "refused" };
    throw error;
  }
}

export async function changeSeatsAction(
  ctx: EngineContext,
  sub: OwnSubscription,
  quantity: unknown,
): Promise<ActionOutcome> {
  const seats = quantityField.safeParse(quantity);
  if (!isLive(sub.status) || sub.cancelAtPeriodEnd || !seats.success) return { notice: "refused" };
  try {
    const result = await changePlan(ctx, {
      subscriptionId: sub.id,
      quantity: seats.data,
      actor: PORTAL_ACTOR,
    });
    return { notice: result.status === "applied" ? "plan_changed" : "plan_scheduled" };
  } catch (error) {
    if (error instanceof PlanChangeError) return { notice: "refused" };
    throw error;
  }
}
