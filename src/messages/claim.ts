import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { type MessageKind, messageRetryDelay, type QuietHours, quietUntil } from "../billing/index.js";
import type { Tx } from "../db/index.js";
import { customerMessages, customers, events } from "../db/schema/index.js";
import type { MessageContext } from "./context.js";
import { recordFailed } from "./outcomes.js";
import { SEND_DEADLINE_MS } from "./transport.js";

/**
 * Claims one attempt at a message, in a short transaction holding its row (FOR UPDATE), before
 * anything is rendered or sent. Postgres is the schedule: the message must be pending and due.
 * - quiet hours (when messages are sent at all): a message due while it is quiet on the customer's
 *   clock (their time zone, else BILLING_TIMEZONE) waits until the quiet ends; that is no attempt;
 * - an attempt whose outcome never came back (the process died mid-send) still counts: past
 *   MESSAGE_MAX_ATTEMPTS the message is failed here, saying so;
 * - otherwise attempts + 1 and next_attempt_at moves on by a lease: when the next attempt would be
 *   due, and at least the send deadline away. A second job for the message finds it not due and
 *   does nothing; a process that dies mid-send leaves the message to come due again.
 */

/** Room beyond the send deadline before a claimed attempt is taken for abandoned. */
const LEASE_MARGIN_MS = 30_000;

export interface MessageContent {
  subject: string;
  text: string;
  html: string;
  /** The RFC 5322 Message-ID, angle brackets included. */
  messageId: string;
}

export interface ClaimedMessage {
  id: string;
  attempt: number;
  kind: MessageKind;
  language: "en" | "ar";
  toAddress: string;
  customerId: string;
  chargeId: string | null;
  eventId: number;
  event: {
    subscriptionId: string | null;
    chargeId: string | null;
    data: Record<string, unknown>;
    occurredAt: Date;
  };
  customer: { name: string | null; email: string };
  /** The customer's time zone, valid. */
  zone: string;
  /** What the first attempt rendered; null before that. */
  content: MessageContent | null;
}

export type ClaimResult =
  | { claimed: ClaimedMessage }
  | { skipped: "not_found" | "not_pending" | "not_due" }
  | { held: DateTime; attempts: number }
  | { failed: { attempts: number; response: string } };

function validZone(zone: string | null, fallback: string): string {
  return zone !== null && DateTime.now().setZone(zone).isValid ? zone : fallback;
}

/** What an earlier attempt rendered and stored, if one did. */
function storedContent(message: typeof customerMessages.$inferSelect): MessageContent | null {
  const { subject, textBody: text, htmlBody: html, messageId } = message;
  return subject !== null && text !== null && html !== null && messageId !== null
    ? { subject, text, html, messageId }
    : null;
}

async function lockedMessage(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      message: customerMessages,
      customerName: customers.name,
      customerEmail: customers.email,
      customerZone: customers.timeZone,
      event: {
        subscriptionId: events.subscriptionId,
        chargeId: events.chargeId,
        data: events.data,
        occurredAt: events.occurredAt,
      },
    })
    .from(customerMessages)
    .innerJoin(customers, eq(customers.id, customerMessages.customerId))
    .innerJoin(events, eq(events.id, customerMessages.eventId))
    .where(eq(customerMessages.id, id))
    .for("update", { of: customerMessages });
  return row;
}

export function claimMessage(
  ctx: MessageContext,
  id: string,
  quiet: QuietHours | undefined,
): Promise<ClaimResult> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx): Promise<ClaimResult> => {
    const row = await lockedMessage(tx, id);
    if (!row) return { skipped: "not_found" };
    const { message } = row;
    if (message.status !== "pending") return { skipped: "not_pending" };
    if (message.nextAttemptAt === null || message.nextAttemptAt > now.toJSDate())
      return { skipped: "not_due" };
    const zone = validZone(row.customerZone, ctx.config.BILLING_TIMEZONE);
    const until = quiet === undefined ? null : quietUntil(now, zone, quiet);
    if (until !== null) {
      await tx
        .update(customerMessages)
        .set({ nextAttemptAt: until.toJSDate() })
        .where(eq(customerMessages.id, id));
      return { held: until, attempts: message.attempts };
    }
    const max = ctx.config.MESSAGE_MAX_ATTEMPTS;
    if (message.attempts >= max) {
      const settled = {
        now,
        attempts: message.attempts,
        response: `no outcome recorded for attempt ${message.attempts} of ${max}`,
      };
      const facts = { ...message, subscriptionId: row.event.subscriptionId };
      await recordFailed(tx, facts, settled);
      return { failed: { attempts: settled.attempts, response: settled.response } };
    }
    const attempt = message.attempts + 1;
    const leaseMs = Math.max(messageRetryDelay(attempt), SEND_DEADLINE_MS + LEASE_MARGIN_MS);
    await tx
      .update(customerMessages)
      .set({ attempts: attempt, nextAttemptAt: now.plus({ milliseconds: leaseMs }).toJSDate() })
      .where(eq(customerMessages.id, id));
    return {
      claimed: {
        id,
        attempt,
        kind: message.kind,
        language: message.language,
        toAddress: message.toAddress,
        customerId: message.customerId,
        chargeId: message.chargeId,
        eventId: message.eventId,
        event: row.event,
        customer: { name: row.customerName, email: row.customerEmail },
        zone,
        content: storedContent(message),
      },
    };
  });
}
