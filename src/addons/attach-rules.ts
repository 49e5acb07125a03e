import { amountFixedByToken } from "../billing/index.js";
import type { StoredAddon } from "./addon-record.js";
import { AddonError } from "./errors.js";
import type { AddonTarget } from "./lock-target.js";

/**
 * Rules of a subscription's add-ons:
 * - only a trialing or active subscription changes its add-ons (attach, quantity, remove): a
 *   past_due one first pays its open charge (one open debt per subscription); pending, paused,
 *   unpaid and canceled ones have no next period to bill them on;
 * - an archived add-on is attached to nothing new, but one already attached keeps its place: its
 *   quantity may change and it may be removed;
 * - the add-on is in the currency of the subscription's plan (one charge, one currency);
 * - a subscription charged through a recurring card token cannot take or change one: the gateway
 *   charges such a token the fixed amount it was enrolled for (GetnewPayment takes no amount), so a
 *   charge with an add-on's line could not be collected. The token's kind is the card's, or, before
 *   a card is saved, the plan's billing_mode. Payment links carry any amount, so a subscription that
 *   pays by link is never refused for its card. Removing is not refused for the card: it only
 *   brings the charge back towards what such a token can collect.
 */

export function refuseStatus(target: AddonTarget): void {
  if (target.status === "past_due") {
    throw new AddonError(
      "subscription_past_due",
      `subscription ${target.id} is past_due: its unpaid charge must be paid before its add-ons change`,
      { subscription_id: target.id, status: target.status },
    );
  }
  if (target.status !== "trialing" && target.status !== "active") {
    throw new AddonError(
      "subscription_not_changeable",
      `subscription ${target.id} is ${target.status}; only a trialing or active subscription changes its add-ons`,
      { subscription_id: target.id, status: target.status },
    );
  }
}

/** Whether this add-on may go on (or change its quantity on) this subscription; throws AddonError. */
export function refuseAttach(target: AddonTarget, addon: StoredAddon, attached: boolean): void {
  const details = { subscription_id: target.id, addon: addon.code };
  if (addon.archivedAt && !attached) {
    throw new AddonError(
      "addon_archived",
      `add-on ${addon.code} is archived; it is attached to nothing new`,
      details,
      "addon",
    );
  }
  const currency = addon.amount.currency;
  if (currency !== target.currency) {
    throw new AddonError(
      "currency_mismatch",
      `add-on ${addon.code} is priced in ${currency} but subscription ${target.id} is billed in ${target.currency}`,
      { ...details, addon_currency: currency, subscription_currency: target.currency },
      "addon",
    );
  }
  if (amountFixedByToken({ ...target, planBillingMode: target.billingMode })) {
    const why =
      target.cardKind === "recurring"
        ? "its card is a recurring token"
        : `its plan charges a recurring token`;
    throw new AddonError(
      "card_amount_fixed",
      `subscription ${target.id} cannot take add-ons: ${why}. Add-ons change the amount of its charges, and a ` +
        "recurring card token is charged the fixed amount it was enrolled for; the subscription needs an autosave " +
        "card (a plan with billing_mode autosave) or payment links (collection_method send_payment_link)",
      { ...details, card_kind: "recurring" },
    );
  }
}
