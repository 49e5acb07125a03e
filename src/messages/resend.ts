import { eq } from "drizzle-orm";
import { z } from "zod";
import { customerMessages, customers } from "../db/schema/index.js";
import type { MessageContext } from "./context.js";
import { getMessage, type MessageDetail } from "./list.js";

/**
 * Sends a message again on request (support, the mailbox): a new pending message, due now, for the
 * same customer, event, kind and language, addressed to the customer's e-mail as it is now (they
 * may have corrected it), naming the message it repeats (resend_of) and who asked (requested_by).
 * It is rendered afresh at its first attempt and goes through the same rules as any message
 * (quiet hours, relevance). The original is left as it was. Null when there is no such message.
 */
export async function resendMessage(
  ctx: Pick<MessageContext, "db" | "clock">,
  messageId: string,
  actor: string,
): Promise<MessageDetail | null> {
  if (!z.uuid().safeParse(messageId).success) return null;
  const [original] = await ctx.db
    .select({ message: customerMessages, email: customers.email })
    .from(customerMessages)
    .innerJoin(customers, eq(customers.id, customerMessages.customerId))
    .where(eq(customerMessages.id, messageId));
  if (!original) return null;
  const { message } = original;
  const [copy] = await ctx.db
    .insert(customerMessages)
    .values({
      customerId: message.customerId,
      eventId: message.eventId,
      chargeId: message.chargeId,
      kind: message.kind,
      language: message.language,
      toAddress: original.email,
      nextAttemptAt: ctx.clock.now().toJSDate(),
      resendOf: message.id,
      requestedBy: actor,
    })
    .returning({ id: customerMessages.id });
  if (!copy) throw new Error(`the resend of message ${messageId} was not recorded`);
  return getMessage(ctx.db, copy.id);
}
