import {
  amountFixedByToken,
  type CollectionMethod,
  type SubscriptionState,
  sameInterval,
} from "../billing/index.js";
import { pgInteger } from "../db/index.js";
import { PlanChangeError, type PlanChangeRefusal } from "./errors.js";
import type { LockedSubscription, PlanFacts } from "./load.js";

/**
 * Whether this subscription may move to this plan. Rules:
 * - only a trialing or active subscription changes plan: past_due first pays its debt (one open
 *   debt per subscription); pending, paused, unpaid and canceled ones have no period to change;
 * - the new plan exists, is not archived, and has the same currency; it is not the current plan at
 *   the current quantity (a change of quantity alone stays on the plan);
 * - a card saved as a recurring token (when the subscription pays by card) is charged, by the gateway, the amount it was enrolled for
 *   (GetnewPayment takes no amount for it), so it can only move to a plan (at a quantity) of that
 *   same amount and interval; any other change needs a card saved for an autosave plan.
 * planChangeRefusal says which rule a change breaks, so the portal offers only changes changePlan
 * takes; refusePlanChange throws it as changePlan's refusal.
 */

/** What the rules read of a subscription: its state and the card it is charged with. */
export interface ChangingSubscription {
  readonly status: SubscriptionState;
  /** A subscription paying by payment link is asked each amount: no token fixes it. */
  readonly collectionMethod: CollectionMethod;
  readonly cardKind: "recurring" | "autosave" | null;
  /** What a recurring card token was enrolled for. */
  readonly cardAmountMinor: number | null;
}

/** The refusals the rules below give; the others come of the subscription's charges and changes. */
export type PlanRuleRefusal = Exclude<PlanChangeRefusal, "period_not_settled" | "no_scheduled_change">;

/** The first rule a move from `from` to `to` breaks, or null when changePlan takes it. */
export function planChangeRefusal(
  subscription: ChangingSubscription,
  from: PlanFacts,
  to: PlanFacts | undefined,
): PlanRuleRefusal | null {
  if (subscription.status === "past_due") return "subscription_past_due";
  if (subscription.status !== "trialing" && subscription.status !== "active")
    return "subscription_not_changeable";
  if (!to) return "plan_not_found";
  if (to.id === from.id && to.quantity === from.quantity) return "same_plan";
  // Archived plans take no new subscribers; their own subscribers may still change seats.
  if (to.archived && to.id !== from.id) return "plan_archived";
  if (to.currency !== from.currency) return "currency_mismatch";
  const recurring = amountFixedByToken({ ...subscription, planBillingMode: from.billingMode });
  const tokenAmount = subscription.cardAmountMinor ?? from.amountMinor;
  if (recurring && (to.amountMinor !== tokenAmount || !sameInterval(from.interval, to.interval)))
    return "card_amount_fixed";
  return null;
}
export function refusePlanChange(
  subscription: LockedSubscription,
  from: PlanFacts,
  to: PlanFacts | undefined,
  toPlanId: string,
): asserts to is PlanFacts {
  const refusal = planChangeRefusal(
    {
      status: subscription.status,
      collectionMethod: subscription.collection_method,
      cardKind: subscription.card_kind,
      cardAmountMinor:
        subscription.card_amount_minor === null ? null : pgInteger(subscription.card_amount_minor),
    },
    from,
    to,
  );
  if (refusal === null) return;
  const id = subscription.id;
  switch (refusal) {
    case "subscription_past_due":
      throw new PlanChangeError(
        refusal,
        `subscription ${id} is past_due: its unpaid charge must be paid before the plan changes`,
      );
    case "subscription_not_changeable":
      throw new PlanChangeError(
        refusal,
        `subscription ${id} is ${subscription.status}; only a trialing or active subscription changes plan`,
        { status: subscription.status },
      );
    case "plan_not_found":
      throw new PlanChangeError(refusal, `no plan ${toPlanId}`);
    case "same_plan":
      throw new PlanChangeError(
        refusal,
        `subscription ${id} is already on plan ${toPlanId} at quantity ${from.quantity}`,
      );
    case "plan_archived":
      throw new PlanChangeError(refusal, `plan ${toPlanId} is archived; it takes no new subscriptions`);
    case "currency_mismatch":
      throw new PlanChangeError(
        refusal,
        `plan ${toPlanId} is in ${to?.currency} but the subscription is billed in ${from.currency}; a plan change keeps the currency`,
        { subscription_currency: from.currency, plan_currency: to?.currency },
      );
    case "card_amount_fixed":
      throw new PlanChangeError(
        refusal,
        `subscription ${id} is charged through a recurring card token, which the gateway charges only the amount it was enrolled for; ` +
          "a change of price or interval needs a card saved for an autosave plan",
        { card_kind: "recurring" },
      );
  }
}
