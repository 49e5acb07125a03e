import { and, eq, type SQL } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { MessageKind } from "../billing/index.js";
import type { Db, Tx } from "../db/index.js";
import { customerMessages } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../events/index.js";

/**
 * How an attempt at a message ends, written to its row. Sent and failed also record their event
 * (message.sent, message.failed) in the same transaction as the status, so the log, the webhooks
 * and the mailbox always agree. A later attempt may have taken over after this one outlived its
 * lease: only the newest attempt's outcome is kept (`attempt` must still be the row's), except that
 * an accepted send from any attempt means sent, since the customer has it either way.
 */

const ACTOR = "messages";

/** What the events of a message say about it. */
export interface MessageFacts {
  id: string;
  kind: MessageKind;
  customerId: string;
  chargeId: string | null;
  subscriptionId: string | null;
  toAddress: string;
}

export interface Settled {
  now: DateTime;
  response: string;
  attempts: number;
}

const pending = (id: string, attempt?: number): SQL | undefined =>
  and(
    eq(customerMessages.id, id),
    eq(customerMessages.status, "pending"),
    attempt === undefined ? undefined : eq(customerMessages.attempts, attempt),
  );

async function recordMessageEvent(
  tx: Tx,
  type: string,
  facts: MessageFacts,
  settled: Settled,
): Promise<void> {
  await recordEvent(tx, {
    type,
    actor: ACTOR,
    occurredAt: settled.now,
    customerId: facts.customerId,
    subscriptionId: facts.subscriptionId,
    chargeId: facts.chargeId,
    data: {
      message_id: facts.id,
      kind: facts.kind,
      to: facts.toAddress,
      response: settled.response,
      attempts: settled.attempts,
    },
  });
}

/** Accepted by the SMTP server; false when the message had already left pending (sent before). */
export function recordSent(db: Db, facts: MessageFacts, settled: Settled): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(customerMessages)
      .set({
        status: "sent",
        sentAt: settled.now.toJSDate(),
        nextAttemptAt: null,
        lastResponse: settled.response,
      })
      .where(pending(facts.id))
      .returning({ id: customerMessages.id });
    if (!row) return false;
    await recordMessageEvent(tx, EVENT_TYPES.messageSent, facts, settled);
    return true;
  });
}

/** Refused for good, or out of attempts; false when `attempt` is no longer the row's. */
export function recordFailed(
  db: Db | Tx,
  facts: MessageFacts,
  settled: Settled,
  attempt?: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(customerMessages)
      .set({ status: "failed", nextAttemptAt: null, lastResponse: settled.response })
      .where(pending(facts.id, attempt))
      .returning({ id: customerMessages.id });
    if (!row) return false;
    await recordMessageEvent(tx, EVENT_TYPES.messageFailed, facts, settled);
    return true;
  });
}

/** Not taken this time; the next attempt is due at `next`. */
export async function recordRetry(db: Db, id: string, attempt: number, next: DateTime, response: string) {
  await db
    .update(customerMessages)
    .set({ nextAttemptAt: next.toJSDate(), lastResponse: response })
    .where(pending(id, attempt));
}

/** Kept for the mailbox (no SMTP), or suppressed (no longer relevant): done, nothing sent. */
export async function recordSettled(
  db: Db,
  id: string,
  attempt: number,
  status: "kept" | "suppressed",
  response: string,
) {
  await db
    .update(customerMessages)
    .set({ status, nextAttemptAt: null, lastResponse: response })
    .where(pending(id, attempt));
}
