import type { DateTime } from "luxon";
import { messageRetryDelay } from "../billing/index.js";
import { type ClaimedMessage, claimMessage, type MessageContent } from "./claim.js";
import { messageContent } from "./content.js";
import type { MessageContext } from "./context.js";
import { loadMessageModel } from "./load-model.js";
import { type MessageFacts, recordFailed, recordRetry, recordSent, recordSettled } from "./outcomes.js";
import type { OutgoingMail, SendResult } from "./transport.js";

/**
 * Makes one attempt at one customer message: what a `messages` job runs, and what the dispatcher
 * runs inline when there is no queue. Steps: claim the attempt (claim.ts: due, quiet hours,
 * attempts, lease), build the model from the rows as they are now (a message no longer relevant is
 * suppressed, saying why), render it once (content.ts), then:
 * - no SMTP configured: kept, rendered for the mailbox and never sent;
 * - accepted: sent, with the server's reply and message.sent;
 * - refused for good (5xx): failed at once, with the reply and message.failed;
 * - not taken (4xx, no server, or the message could not be rendered): tried again after
 *   exponential backoff (billing/message-retry.ts), failed after MESSAGE_MAX_ATTEMPTS.
 * An outcome is recorded and returned, never thrown; only an infrastructure failure (Postgres
 * unreachable) throws, and BullMQ's job retry is then a hint to come back.
 *
 * Sending is at least once. A graceful stop lets a send in hand finish and record its outcome (the
 * worker closes before the transport and the database), so restarting a worker sends nothing
 * twice. A crash between the server's acceptance and the recorded outcome sends the message again
 * when its lease ends, with the same Message-ID, by which receiving servers and mail programs
 * recognise the copy.
 */

export const KEPT_RESPONSE = "no SMTP configured: kept for the mailbox";

export type MessageOutcome =
  | { status: "sent"; messageId: string; attempts: number; response: string }
  | { status: "kept"; messageId: string }
  | { status: "suppressed"; messageId: string; reason: string }
  | {
      status: "retry_scheduled";
      messageId: string;
      attempts: number;
      nextAttemptAt: DateTime;
      response: string;
    }
  | { status: "failed"; messageId: string; attempts: number; response: string }
  /** Quiet hours on the customer's clock: due again when they end, no attempt counted. */
  | { status: "held"; messageId: string; attempts: number; until: DateTime }
  /** Nothing done: no such message, already finished, or not due (another worker holds it). */
  | { status: "skipped"; messageId: string; reason: "not_found" | "not_pending" | "not_due" };

function outgoingMail(ctx: MessageContext, message: ClaimedMessage, content: MessageContent): OutgoingMail {
  return {
    from: { name: ctx.config.MERCHANT_NAME, address: ctx.config.MAIL_FROM },
    replyTo: ctx.config.MAIL_REPLY_TO ?? ctx.config.MERCHANT_SUPPORT_EMAIL ?? null,
    to: message.toAddress,
    subject: content.subject,
    text: content.text,
    html: content.html,
    messageId: content.messageId,
    headers: {
      // RFC 3834: sent by a machine, so vacation responders and auto-replies stay silent.
      "Auto-Submitted": "auto-generated",
      "X-Auto-Response-Suppress": "All",
      "Content-Language": message.language,
    },
  };
}

/** The model and the stored rendering, or why nothing is to be sent. */
async function prepare(
  ctx: MessageContext,
  message: ClaimedMessage,
): Promise<{ content: MessageContent } | { suppressed: string } | { unrenderable: string }> {
  try {
    const loaded = await loadMessageModel(ctx, { ...message, now: ctx.clock.now() });
    if ("suppressed" in loaded) return loaded;
    return { content: await messageContent(ctx, message, loaded.model) };
  } catch (error) {
    // A template that does not compile, or a fact it refuses: retried on the message's schedule,
    // so a fixed template (after a restart) still gets it out; the reason is kept on the message.
    return { unrenderable: `could not render: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function settle(
  ctx: MessageContext,
  message: ClaimedMessage,
  result: SendResult,
): Promise<MessageOutcome> {
  const now = ctx.clock.now();
  const { id, attempt } = message;
  const facts: MessageFacts = { ...message, subscriptionId: message.event.subscriptionId };
  const settled = { now, response: result.response, attempts: attempt };
  if (result.outcome === "accepted") {
    await recordSent(ctx.db, facts, settled);
    return { status: "sent", messageId: id, attempts: attempt, response: result.response };
  }
  if (result.outcome === "refused" || attempt >= ctx.config.MESSAGE_MAX_ATTEMPTS) {
    await recordFailed(ctx.db, facts, settled, attempt);
    return { status: "failed", messageId: id, attempts: attempt, response: result.response };
  }
  const nextAttemptAt = now.plus({ milliseconds: messageRetryDelay(attempt) });
  await recordRetry(ctx.db, id, attempt, nextAttemptAt, result.response);
  return {
    status: "retry_scheduled",
    messageId: id,
    attempts: attempt,
    nextAttemptAt,
    response: result.response,
  };
}

function logOutcome(ctx: MessageContext, message: ClaimedMessage, outcome: MessageOutcome): void {
  const fields = {
    component: "messages",
    messageId: message.id,
    kind: message.kind,
    attempt: message.attempt,
    server: ctx.transport?.server,
    outcome,
  };
  if (outcome.status === "failed") ctx.logger.error(fields, "customer message failed");
  else if (outcome.status === "retry_scheduled")
    ctx.logger.warn(fields, "customer message not taken; will retry");
  else ctx.logger.info(fields, `customer message ${outcome.status}`);
}

async function attempt(ctx: MessageContext, message: ClaimedMessage): Promise<MessageOutcome> {
  const prepared = await prepare(ctx, message);
  if ("suppressed" in prepared) {
    await recordSettled(ctx.db, message.id, message.attempt, "suppressed", prepared.suppressed);
    return { status: "suppressed", messageId: message.id, reason: prepared.suppressed };
  }
  if ("unrenderable" in prepared) {
    return settle(ctx, message, { outcome: "retry", response: prepared.unrenderable });
  }
  if (ctx.transport === null) {
    await recordSettled(ctx.db, message.id, message.attempt, "kept", KEPT_RESPONSE);
    return { status: "kept", messageId: message.id };
  }
  const result = await ctx.transport.send(outgoingMail(ctx, message, prepared.content));
  return settle(ctx, message, result);
}

export async function deliverMessage(ctx: MessageContext, messageId: string): Promise<MessageOutcome> {
  // Quiet hours keep messages from reaching people at night; a message kept for the mailbox
  // reaches nobody, so it is not held.
  const quiet = ctx.transport === null ? undefined : ctx.config.MESSAGE_QUIET_HOURS;
  const claim = await claimMessage(ctx, messageId, quiet);
  if ("skipped" in claim) return { status: "skipped", messageId, reason: claim.skipped };
  if ("held" in claim) return { status: "held", messageId, attempts: claim.attempts, until: claim.held };
  if ("failed" in claim) {
    ctx.logger.error({ component: "messages", messageId, ...claim.failed }, "customer message failed");
    return { status: "failed", messageId, ...claim.failed };
  }
  const outcome = await attempt(ctx, claim.claimed);
  logOutcome(ctx, claim.claimed, outcome);
  return outcome;
}
