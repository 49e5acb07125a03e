import { z } from "zod";
import { MESSAGE_KINDS, MESSAGE_STATUSES } from "../billing/index.js";
import { language } from "../db/schema/index.js";
import type { MessageDetail, MessageSummary } from "../messages/index.js";
import { iso, timestamp } from "./shapes.js";

/**
 * Customer messages as the API shows them (GET /v1/customers/:id/messages, /v1/messages/:id) and
 * the CLI prints them (`billing messages`): one e-mail to one customer with how far it got; the
 * bodies only on the message itself.
 */
export const messageSchema = z
  .object({
    id: z.uuid(),
    customer_id: z.uuid(),
    kind: z.enum(MESSAGE_KINDS),
    language: z.enum(language.enumValues),
    to: z.string().describe("The address it was (or will be) sent to"),
    status: z
      .enum(MESSAGE_STATUSES)
      .describe(
        "pending: not sent yet; sent: the SMTP server accepted it; kept: rendered and kept, no SMTP server is configured; failed: refused for good or out of attempts; suppressed: turned off, or no longer relevant when its turn came",
      ),
    subject: z.string().nullable().describe("Set when it is rendered"),
    attempts: z.number().int(),
    next_attempt_at: timestamp.nullable(),
    last_response: z.string().nullable().describe("The SMTP server's last reply, or why nothing was sent"),
    sent_at: timestamp.nullable(),
    message_id: z.string().nullable().describe("The RFC 5322 Message-ID"),
    charge_id: z.uuid().nullable(),
    event_id: z.number().int().describe("The event that caused it"),
    resend_of: z.uuid().nullable().describe("The message this one sends again"),
    requested_by: z.string().describe('"system" for the outbox, else who asked for a resend'),
    created_at: timestamp,
  })
  .meta({ id: "Message" });

export const messageDetailSchema = messageSchema
  .extend({
    text: z.string().nullable().describe("The plain-text body, once rendered"),
    html: z.string().nullable().describe("The HTML body, once rendered"),
  })
  .meta({ id: "MessageDetail" });

export function presentMessage(row: MessageSummary): z.infer<typeof messageSchema> {
  return {
    id: row.id,
    customer_id: row.customerId,
    kind: row.kind,
    language: row.language,
    to: row.toAddress,
    status: row.status,
    subject: row.subject,
    attempts: row.attempts,
    next_attempt_at: iso(row.nextAttemptAt),
    last_response: row.lastResponse,
    sent_at: iso(row.sentAt),
    message_id: row.messageId,
    charge_id: row.chargeId,
    event_id: row.eventId,
    resend_of: row.resendOf,
    requested_by: row.requestedBy,
    created_at: iso(row.createdAt),
  };
}

export function presentMessageDetail(row: MessageDetail): z.infer<typeof messageDetailSchema> {
  return { ...presentMessage(row), text: row.textBody, html: row.htmlBody };
}
