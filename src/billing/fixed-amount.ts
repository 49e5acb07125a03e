import type { CollectionMethod } from "./payment-link.js";
import type { BillingMode } from "./plan.js";

/**
 * Whether the gateway fixes what a subscription's charges may be. A card saved as a recurring
 * token is charged, by the gateway, the amount it was enrolled for (GetnewPayment takes no amount
 * for it); before a card is saved, the plan's billing_mode says which kind it will be. A
 * subscription paying by payment link is asked each amount, so nothing fixes it. Every change of
 * what a charge costs (plan or seats, coupons, credit, add-ons, one-off charges, usage) asks this
 * one rule; the usage scan applies it in SQL (usage-billing/due-periods.ts).
 */
export function amountFixedByToken(subscription: {
  readonly collectionMethod: CollectionMethod;
  readonly cardKind: "recurring" | "autosave" | null;
  readonly planBillingMode: BillingMode;
}): boolean {
  return (
    subscription.collectionMethod === "charge_automatically" &&
    (subscription.cardKind ?? subscription.planBillingMode) === "recurring"
  );
}
