/**
 * Event types that merchants can receive as webhooks. The engine records many more (enrollment.*,
 * charge.attempt_*, charge.needs_review, …), but those describe its own bookkeeping. A merchant
 * builds on what we send, so the public set is kept small, named for what the merchant cares
 * about, and only ever grows.
 */
export const EVENT_TYPES = {
  subscriptionActivated: "subscription.activated",
  chargeSucceeded: "charge.succeeded",
  chargeFailed: "charge.failed",
  chargeRetryScheduled: "charge.retry_scheduled",
  subscriptionPastDue: "subscription.past_due",
  subscriptionUnpaid: "subscription.unpaid",
  subscriptionCanceled: "subscription.canceled",
  invoiceCreated: "invoice.created",
  chargeDuplicateRefunded: "charge.duplicate_refunded",
  paymentMethodExpiring: "payment_method.expiring",
  subscriptionPlanChanged: "subscription.plan_changed",
  subscriptionPlanChangeScheduled: "subscription.plan_change_scheduled",
  chargePaymentLinkCreated: "charge.payment_link_created",
  chargePaymentLinkReminder: "charge.payment_link_reminder",
  subscriptionCollectionMethodChanged: "subscription.collection_method_changed",
  subscriptionEnrollmentFailed: "subscription.enrollment_failed",
  subscriptionRenewalUpcoming: "subscription.renewal_upcoming",
  subscriptionTrialEnding: "subscription.trial_ending",
  subscriptionCreditGranted: "subscription.credit_granted",
  subscriptionAddonAdded: "subscription.addon_added",
  subscriptionAddonUpdated: "subscription.addon_updated",
  subscriptionAddonRemoved: "subscription.addon_removed",
  messageSent: "message.sent",
  messageFailed: "message.failed",
  entitlementsChanged: "entitlements.changed",
  subscriptionOneOffChargeAdded: "subscription.one_off_charge_added",
} as const;

export type WebhookEventType = (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];

/**
 * THE table of webhook-worthy event types, with what each means to the merchant. recordEvent
 * consults it to decide whether an event goes to the outbox; a type missing here is never sent.
 */
export const WEBHOOK_EVENT_TYPES: Readonly<Record<WebhookEventType, string>> = {
  "subscription.activated": "The subscription became active.",
  "charge.succeeded": "A charge was paid.",
  "charge.failed": "A charge attempt was declined or could not be made.",
  "charge.retry_scheduled": "A failed charge will be attempted again; data says when.",
  "subscription.past_due": "A renewal charge failed and is being retried.",
  "subscription.unpaid": "Retries ran out; the subscription stays unpaid until a payment succeeds.",
  "subscription.canceled": "The subscription ended.",
  "invoice.created": "An invoice was issued for a charge.",
  "charge.duplicate_refunded":
    "The gateway applied a payment late, after the period was already paid; that duplicate payment was refunded.",
  "payment_method.expiring":
    "The saved card stops working within two weeks; data carries a link for the customer to add a new one.",
  "subscription.plan_changed":
    "The subscription moved to another plan; data carries what was credited and charged for the change.",
  "subscription.plan_change_scheduled":
    "A plan change was scheduled for the end of the current period; data says when and to which plan.",
  "charge.payment_link_created":
    "A charge of a subscription that pays by link is due; data carries the payment link to give the customer.",
  "charge.payment_link_reminder":
    "A charge's payment link is still unpaid and is sent again (the dunning schedule); data carries the link.",
  "subscription.collection_method_changed":
    "The subscription now pays by card (charge_automatically) or by payment link (send_payment_link).",
  "subscription.enrollment_failed":
    "The checkout that was to save the card of a new subscription failed (a Qatar debit card cannot recur); it can pay by payment link instead: POST /v1/subscriptions/{id}/collection-method with send_payment_link.",
  "subscription.renewal_upcoming":
    "The subscription renews soon (RENEWAL_NOTICE_DAYS ahead); data says when, for how much and on which plan.",
  "subscription.trial_ending":
    "The trial ends soon (TRIAL_ENDING_NOTICE_DAYS ahead) and converts to paid; data says when, the first charge, and whether a card is saved.",
  "subscription.credit_granted":
    "A person gave the customer credit, taken off the next charges; data carries the amount, the reason and the balance after.",
  "subscription.addon_added":
    "An add-on was attached to the subscription; it is billed from the next period charged. data carries the add-on's code and quantity.",
  "subscription.addon_updated":
    "An add-on's quantity on the subscription changed, from the next period charged; data carries from_quantity and to_quantity.",
  "subscription.addon_removed":
    "An add-on was taken off the subscription; the next periods are charged without it. data carries its code and last quantity.",
  "message.sent":
    "An e-mail to the customer (a receipt, a notice) was accepted by the SMTP server; data says which message, its kind, the address and the server's reply.",
  "message.failed":
    "An e-mail to the customer could not be sent: the SMTP server refused it for good, or its retries ran out; data carries the server's last reply.",
  "entitlements.changed":
    "What a customer may use changed (a subscription started, fell past due or unpaid, was paused, resumed, canceled or changed plan, or a plan's features changed); data carries the customer's entitlements now, as GET /v1/customers/{id}/entitlements answers, and caused_by.",
  "subscription.one_off_charge_added":
    "A one-off charge was added: collected now as a charge of its own (charge_id), or waiting as a line of the next period's charge.",
};

export function isWebhookEventType(type: string): type is WebhookEventType {
  return Object.hasOwn(WEBHOOK_EVENT_TYPES, type);
}
