/**
 * The customer portal's services: magic links (create, open once into a session, which
 * src/sessions then finds), and what a customer sees. The pages and their actions are in src/http/portal.
 */
export type { AccountAddon } from "./account-addons.js";
export type { AccountUsage } from "./account-usage.js";
export { createPortalLink, PORTAL_PATH, type PortalLink } from "./create-portal-link.js";
export {
  type AccountCharge,
  type AccountDocument,
  type AccountDueCharge,
  type AccountInvoice,
  type AccountSubscription,
  type AccountSubscriptionDetail,
  type CustomerAccount,
  customerAccount,
} from "./customer-account.js";
export { PortalCustomerNotFoundError } from "./errors.js";
export { inspectPortalLink, openPortalLink } from "./open-portal-link.js";
export { type OwnSubscription, ownSubscription } from "./own-subscription.js";
export { plansToChangeTo } from "./plan-choices.js";
