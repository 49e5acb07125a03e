/**
 * What the engine tells the person who pays, and how far each message got. The kinds are service
 * messages (no marketing): each follows from a billing fact, and each can be turned off for the
 * whole merchant (webhook-only mode) or for one customer.
 *
 * A message is `pending` until the message worker renders it; then `sent` (the SMTP server accepted
 * it), `kept` (no SMTP configured: rendered and kept for the mailbox, never sent), `failed` (refused
 * for good, or retries ran out) or `suppressed` (turned off, or no longer relevant when its turn came).
 */
export const MESSAGE_KINDS = [
  "receipt",
  "payment_due",
  "payment_failed",
  "card_expiring",
  "renewal_upcoming",
  "trial_ending",
  "subscription_canceled",
  "refund_issued",
] as const;

export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MESSAGE_STATUSES = ["pending", "sent", "kept", "failed", "suppressed"] as const;

export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export function isMessageKind(value: string): value is MessageKind {
  return (MESSAGE_KINDS as readonly string[]).includes(value);
}
