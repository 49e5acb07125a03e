import { sameInterval } from "../billing/index.js";
import { pgInteger } from "../db/index.js";
import { PlanChangeError } from "./errors.js";
import type { LockedSubscription, PlanFacts } from "./load.js";

/**
 * Whether this subscription may move to this plan. Rules:
 * - only a trialing or active subscription changes plan: past_due first pays its debt (one open
 *   debt per subscription); pending, paused, unpaid and canceled ones have no period to change;
 * - the new plan exists, is not archived, is not the current one, and has the same currency;
 * - a card saved as a recurring token is charged, by the gateway, the amount it was enrolled for
 *   (GetnewPayment takes no amount for it), so it can only move to a plan of that same amount and
 *   interval; any other change needs a card saved for an autosave plan.
 */
export function refusePlanChange(
  subscription: LockedSubscription,
  from: PlanFacts,
  to: PlanFacts | undefined,
  toPlanId: string,
): asserts to is PlanFacts {
  if (subscription.status === "past_due") {
    throw new PlanChangeError(
      "subscription_past_due",
      `subscription ${subscription.id} is past_due: its unpaid charge must be paid before the plan changes`,
    );
  }
  if (subscription.status !== "trialing" && subscription.status !== "active") {
    throw new PlanChangeError(
      "subscription_not_changeable",
      `subscription ${subscription.id} is ${subscription.status}; only a trialing or active subscription changes plan`,
      { status: subscription.status },
    );
  }
  if (!to) throw new PlanChangeError("plan_not_found", `no plan ${toPlanId}`);
  if (to.id === from.id)
    throw new PlanChangeError("same_plan", `subscription ${subscription.id} is already on plan ${to.id}`);
  if (to.archived)
    throw new PlanChangeError("plan_archived", `plan ${to.id} is archived; it takes no new subscriptions`);
  if (to.currency !== from.currency) {
    throw new PlanChangeError(
      "currency_mismatch",
      `plan ${to.id} is in ${to.currency} but the subscription is billed in ${from.currency}; a plan change keeps the currency`,
      { subscription_currency: from.currency, plan_currency: to.currency },
    );
  }
  const recurring =
    subscription.card_kind === "recurring" ||
    (subscription.card_kind === null && from.billingMode === "recurring");
  const tokenAmount =
    subscription.card_amount_minor === null ? from.amountMinor : pgInteger(subscription.card_amount_minor);
  if (recurring && (to.amountMinor !== tokenAmount || !sameInterval(from.interval, to.interval))) {
    throw new PlanChangeError(
      "card_amount_fixed",
      `subscription ${subscription.id} is charged through a recurring card token, which the gateway charges only the amount it was enrolled for; ` +
        "a change of price or interval needs a card saved for an autosave plan",
      { card_kind: "recurring" },
    );
  }
}
