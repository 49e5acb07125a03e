/**
 * The public shape of the engine's resources: one presenter per resource, which the merchant API
 * answers with, webhooks carry (src/webhooks/event-objects.ts) and the CLI prints with --json, kept
 * below all three so that a service may present what an edge shows; and the reads that load the
 * rows they present. The CLI imports the modules themselves, so a read loads only what it reads.
 */
export { chargeSchema, presentCharge } from "./charge.js";
export { findCharge, listCharges } from "./charge-reads.js";
export { type ChargeRow, type LinkSigner, paymentLinkOf, withAttemptsAndRefunds } from "./charge-rows.js";
export { moneySchema, presentMoney, timestamp } from "./shapes.js";
export { presentSubscription, subscriptionSchema } from "./subscription.js";
export {
  type EventRow,
  findSubscription,
  listSubscriptionEvents,
  listSubscriptions,
} from "./subscription-reads.js";
export { type SubscriptionView, subscriptionViews } from "./subscription-rows.js";
