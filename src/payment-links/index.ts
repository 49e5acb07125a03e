/** Collection by payment link: opening links, settling their checkouts, reminders, switching methods. */
export { type ReturnOutcome, settleCheckoutOrder, settleCheckoutReturn } from "./checkout-return.js";
export { type LinkFacts, type LinkView, openPaymentLink, paymentLinkFacts } from "./open-link.js";
export { acceptPayByLink, payByLinkOffer } from "./pay-by-link-offer.js";
export { type LinkSweep, linksDue, MAX_LINK_STEPS_PER_RUN, remindPaymentLinks } from "./remind-links.js";
export { type CheckoutOutcome, settleCheckout } from "./settle-checkout.js";
export { type SubscriptionDue, subscriptionDue } from "./subscription-due.js";
export {
  CollectionMethodRefusal,
  type SwitchRefusalCode,
  type SwitchResult,
  setCollectionMethod,
} from "./switch-method.js";
