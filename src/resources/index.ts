/**
 * The public shape of the engine's resources: one presenter per resource, which the merchant API
 * answers with and webhooks carry (src/webhooks/event-objects.ts), kept below both so that a
 * service may present what an edge shows. The API's reads import the modules themselves, so a CLI
 * read loads only what it reads.
 */
export { chargeSchema, presentCharge } from "./charge.js";
export { type ChargeRow, type LinkSigner, withAttemptsAndRefunds } from "./charge-rows.js";
export { moneySchema, presentMoney, timestamp } from "./shapes.js";
export { presentSubscription, subscriptionSchema } from "./subscription.js";
export { type SubscriptionView, subscriptionViews } from "./subscription-rows.js";
