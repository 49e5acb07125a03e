import { paymentLinkUrl } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { newCardLink } from "../http/index.js";
import {
  createMessageRenderer,
  documentUrl,
  type MessageContext,
  type MessageLinks,
  smtpTransport,
} from "../messages/index.js";

/**
 * The customer messages of an engine process: one MessageContext per engine context, with the
 * process's one SMTP transport (pooled, from SMTP_URL; none without it, and messages are kept for
 * the mailbox) and the links of the HTTP edge, read from the context when a message is rendered.
 * createEngine builds it at boot, so a MESSAGE_TEMPLATES_DIR that does not exist stops the boot;
 * nodemailer connects only when a message is sent. The transport is closed after the queues, so a
 * send in hand finishes first. SMTP_URL carries the password: only the host is logged.
 */
const contexts = new WeakMap<EngineContext, MessageContext>();

function links(ctx: EngineContext): MessageLinks {
  return {
    newCard: (subscriptionId) => newCardLink(ctx, subscriptionId, ctx.clock.now()),
    paymentLink: (chargeId) => paymentLinkUrl(ctx, chargeId),
    receipt: (id) => ({
      html: documentUrl(ctx, "receipt", id, "html"),
      pdf: documentUrl(ctx, "receipt", id, "pdf"),
    }),
    creditNote: (id) => ({
      html: documentUrl(ctx, "credit_note", id, "html"),
      pdf: documentUrl(ctx, "credit_note", id, "pdf"),
    }),
  };
}

export function engineMessages(ctx: EngineContext): MessageContext {
  const existing = contexts.get(ctx);
  if (existing) return existing;
  const { SMTP_URL, MESSAGE_TEMPLATES_DIR } = ctx.config;
  const transport = SMTP_URL === undefined ? null : smtpTransport(SMTP_URL);
  const messages: MessageContext = {
    db: ctx.db,
    clock: ctx.clock,
    logger: ctx.logger,
    config: ctx.config,
    renderer: createMessageRenderer(
      MESSAGE_TEMPLATES_DIR === undefined ? {} : { templatesDir: MESSAGE_TEMPLATES_DIR },
    ),
    transport,
    links: links(ctx),
  };
  contexts.set(ctx, messages);
  ctx.logger.debug(
    { component: "messages", smtp: transport?.server ?? null },
    transport ? "customer messages are sent over SMTP" : "no SMTP_URL: customer messages are kept, not sent",
  );
  return messages;
}

/** Closes the process's SMTP transport, letting a send in progress finish. */
export async function closeEngineMessages(ctx: EngineContext): Promise<void> {
  const messages = contexts.get(ctx);
  contexts.delete(ctx);
  await messages?.transport?.close();
}
