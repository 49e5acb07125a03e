import type { Clock } from "../clock/index.js";
import type { Config } from "../config/index.js";
import type { Db } from "../db/index.js";
import type { Logger } from "../logger/index.js";
import type { MessageRenderer } from "./render/index.js";
import type { MailTransport } from "./transport.js";

/**
 * What rendering and sending customer messages needs; the composition root (src/app) builds one
 * per process, with its one SMTP transport. Links are injected because the pages they open belong
 * to the HTTP edge (new-card checkout, payment link, documents), which services may not import.
 */
export interface MessageLinks {
  /** Opens a checkout for a new card on the subscription. */
  newCard(subscriptionId: string): string;
  /** The charge's payment link. */
  paymentLink(chargeId: string): string;
  receipt(receiptId: string): { html: string; pdf: string };
  creditNote(creditNoteId: string): { html: string; pdf: string };
  /** Where the customer manages the subscription, when the merchant has such a page. */
  portal?(customerId: string): string | null;
}

export type MessageConfig = Pick<
  Config,
  | "MAIL_FROM"
  | "MAIL_REPLY_TO"
  | "MESSAGE_QUIET_HOURS"
  | "MESSAGE_MAX_ATTEMPTS"
  | "MERCHANT_NAME"
  | "MERCHANT_LOGO_URL"
  | "MERCHANT_SUPPORT_EMAIL"
  | "BILLING_TIMEZONE"
>;

export interface MessageContext {
  db: Db;
  /** The billing clock: when a message is due, quiet hours, sent_at. */
  clock: Clock;
  logger: Logger;
  config: MessageConfig;
  renderer: MessageRenderer;
  /** The SMTP transport; null when SMTP_URL is not set, and messages are rendered and kept. */
  transport: MailTransport | null;
  links: MessageLinks;
}
