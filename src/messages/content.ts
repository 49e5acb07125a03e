import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { customerMessages } from "../db/schema/index.js";
import type { ClaimedMessage, MessageContent } from "./claim.js";
import type { MessageConfig, MessageContext } from "./context.js";
import type { Merchant, MessageModel } from "./render/index.js";

/**
 * A message is rendered once, at its first attempt, and stored with a Message-ID fixed then:
 * every later attempt sends exactly what was stored, so the mailbox shows what the customer got,
 * and a message sent again after a crash is recognisably the same one to the receiving servers.
 * A resend is a new message, rendered afresh at its own first attempt.
 */

export function merchantOf(config: MessageConfig): Merchant {
  return {
    name: config.MERCHANT_NAME,
    logoUrl: config.MERCHANT_LOGO_URL ?? null,
    supportEmail: config.MERCHANT_SUPPORT_EMAIL ?? null,
  };
}

/** `<msg-<uuid>@<MAIL_FROM's domain>>`: unique, and naming the domain that sends it. */
export function newMessageId(mailFrom: string): string {
  const domain = mailFrom.slice(mailFrom.lastIndexOf("@") + 1).replace(/[>\s]/g, "") || "localhost";
  return `<msg-${randomUUID()}@${domain}>`;
}

export async function messageContent(
  ctx: MessageContext,
  claim: ClaimedMessage,
  model: MessageModel,
): Promise<MessageContent> {
  if (claim.content !== null) return claim.content;
  const rendered = await ctx.renderer.render({
    model,
    language: claim.language,
    merchant: merchantOf(ctx.config),
    customer: { name: claim.customer.name, email: claim.toAddress },
    timeZone: claim.zone,
  });
  const content = {
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId: newMessageId(ctx.config.MAIL_FROM),
  };
  const stored = await ctx.db
    .update(customerMessages)
    .set({
      subject: content.subject,
      textBody: content.text,
      htmlBody: content.html,
      messageId: content.messageId,
    })
    .where(and(eq(customerMessages.id, claim.id), isNull(customerMessages.messageId)))
    .returning({ id: customerMessages.id });
  if (stored.length > 0) return content;
  // An earlier attempt that outlived its lease stored its rendering meanwhile: send that one.
  const [row] = await ctx.db
    .select({
      subject: customerMessages.subject,
      text: customerMessages.textBody,
      html: customerMessages.htmlBody,
      messageId: customerMessages.messageId,
    })
    .from(customerMessages)
    .where(eq(customerMessages.id, claim.id));
  if (!row?.subject || row.text === null || row.html === null || !row.messageId) {
    throw new Error(`message ${claim.id} lost its rendering`);
  }
  return { subject: row.subject, text: row.text, html: row.html, messageId: row.messageId };
}
