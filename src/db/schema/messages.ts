import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  check,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, rowId, timestamptz } from "./columns.js";
import { language, messageKind, messageStatus } from "./enums.js";

/**
 * The customer outbox: one e-mail to one customer. Written by the transaction that records the
 * event causing it (src/events/customer-outbox.ts), so a rolled-back change never writes to a
 * customer and a committed one always has its message waiting; the message worker renders and
 * sends it later (src/messages). Rules:
 * - one message per event and kind (unique), so an event replayed or recorded twice tells the
 *   customer once; a resend is a new row naming the one it repeats (resend_of), outside that rule;
 * - one payment_failed notice per charge, however many attempts fail;
 * - only a pending message has a next_attempt_at (the worker's index); subject and bodies are
 *   stored when it is rendered, so the mailbox shows exactly what was sent or kept;
 * - message_id is the RFC 5322 Message-ID, fixed before the first attempt, so a message sent again
 *   after a crash is recognisably the same one to the receiving servers;
 * - no foreign keys to the customer, event and charge (migration 0025): a message is written from
 *   the event its transaction just recorded, joined to its customer (a resend copies a message
 *   joined to its customer), and nothing deletes customers, charges or events; the three checks
 *   cost the paying path about 15 µs a charge.
 */
export const customerMessages = pgTable(
  "customer_messages",
  {
    id: rowId(),
    customerId: uuid("customer_id").notNull(),
    eventId: bigint("event_id", { mode: "number" }).notNull(),
    chargeId: uuid("charge_id"),
    kind: messageKind("kind").notNull(),
    language: language("language").notNull(),
    toAddress: text("to_address").notNull(),
    status: messageStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamptz("next_attempt_at"),
    messageId: text("message_id"),
    subject: text("subject"),
    textBody: text("text_body"),
    htmlBody: text("html_body"),
    /** The SMTP server's last reply (accepted or refused), or why nothing was sent. */
    lastResponse: text("last_response"),
    sentAt: timestamptz("sent_at"),
    resendOf: uuid("resend_of").references((): AnyPgColumn => customerMessages.id),
    /** Who asked for it: "system" for the outbox, an actor as in events for a resend. */
    requestedBy: text("requested_by").notNull().default("system"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("customer_messages_event_kind_key").on(t.eventId, t.kind).where(sql`${t.resendOf} is null`),
    uniqueIndex("customer_messages_failed_charge_key")
      .on(t.chargeId)
      .where(sql`${t.kind} = 'payment_failed' and ${t.resendOf} is null`),
    index("customer_messages_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending' and ${t.nextAttemptAt} is not null`),
    index("customer_messages_customer_idx").on(t.customerId, t.createdAt),
    index("customer_messages_created_idx").on(t.createdAt),
    check("customer_messages_attempts_non_negative", sql`${t.attempts} >= 0`),
    check(
      "customer_messages_due_only_when_pending",
      sql`${t.nextAttemptAt} is null or ${t.status} = 'pending'`,
    ),
    check("customer_messages_sent_has_time", sql`(${t.status} = 'sent') = (${t.sentAt} is not null)`),
  ],
);
