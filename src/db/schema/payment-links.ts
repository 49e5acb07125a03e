import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, uuid } from "drizzle-orm/pg-core";
import { charges } from "./billing.js";
import { timestamptz } from "./columns.js";

/**
 * The payment link of a charge collected by link (payment-links/). The link itself is not stored:
 * it is signed from the charge id (payment-links/link-token.ts), so it is the same in every
 * message and cannot be guessed. Rules:
 * - one row per charge, written when the link first goes out (the charge becomes awaiting_payment);
 * - next_reminder_at (billing clock) is when the reminder sweep next looks at it: a reminder, or
 *   the dunning policy's terminal action once the reminders ran out; null once the charge left
 *   awaiting_payment (paid, ended, or collected by card again);
 * - opened_at is the first time the customer opened it (the ops funnel: sent, opened, paid).
 */
export const paymentLinks = pgTable(
  "payment_links",
  {
    chargeId: uuid("charge_id")
      .primaryKey()
      .references(() => charges.id),
    sentAt: timestamptz("sent_at").notNull(),
    remindersSent: integer("reminders_sent").notNull().default(0),
    nextReminderAt: timestamptz("next_reminder_at"),
    lastReminderAt: timestamptz("last_reminder_at"),
    openedAt: timestamptz("opened_at"),
  },
  (t) => [
    index("payment_links_due_idx").on(t.nextReminderAt).where(sql`${t.nextReminderAt} is not null`),
    index("payment_links_sent_idx").on(t.sentAt),
    check("payment_links_reminders_non_negative", sql`${t.remindersSent} >= 0`),
    check("payment_links_reminded_has_time", sql`(${t.remindersSent} = 0) = (${t.lastReminderAt} is null)`),
  ],
);
