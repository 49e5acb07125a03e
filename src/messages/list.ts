import { and, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { MESSAGE_KINDS, MESSAGE_STATUSES } from "../billing/index.js";
import type { Db } from "../db/index.js";
import { customerMessages } from "../db/schema/index.js";

/**
 * The customer messages as the API, the CLI and the ops mailbox show them: newest first, a page
 * at a time (keyset on created_at, id, so messages added while paging never shift a page), filtered
 * by customer, status and kind. A page leaves the bodies out; getMessage has them. Plain records,
 * one field per column, for the edges to present (snake_case there).
 */

export type MessageDetail = typeof customerMessages.$inferSelect;
export type MessageSummary = Omit<MessageDetail, "textBody" | "htmlBody">;

export const listMessagesOptions = z.strictObject({
  customerId: z.uuid().optional(),
  status: z.enum(MESSAGE_STATUSES).optional(),
  kind: z.enum(MESSAGE_KINDS).optional(),
  limit: z.number().int().min(1).max(500).default(50),
  /** The id of the last message of the previous page. */
  cursor: z.uuid().optional(),
});

export type ListMessagesOptions = z.input<typeof listMessagesOptions>;

export interface MessagePage {
  messages: MessageSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

const { textBody: _text, htmlBody: _html, ...summaryColumns } = getTableColumns(customerMessages);

/** Messages created before the cursor's, newest first; an unknown cursor yields an empty page. */
function beforeCursor(cursor: string | undefined): SQL | undefined {
  if (cursor === undefined) return undefined;
  return sql`(${customerMessages.createdAt}, ${customerMessages.id}) < (select c.created_at, c.id from ${customerMessages} c where c.id = ${cursor})`;
}

/** Bad options throw a ZodError naming the field. */
export async function listMessages(db: Db, options: ListMessagesOptions = {}): Promise<MessagePage> {
  const { customerId, status, kind, limit, cursor } = listMessagesOptions.parse(options);
  const rows = await db
    .select(summaryColumns)
    .from(customerMessages)
    .where(
      and(
        customerId === undefined ? undefined : eq(customerMessages.customerId, customerId),
        status === undefined ? undefined : eq(customerMessages.status, status),
        kind === undefined ? undefined : eq(customerMessages.kind, kind),
        beforeCursor(cursor),
      ),
    )
    .orderBy(desc(customerMessages.createdAt), desc(customerMessages.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { messages: page, nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}

/** One message with its bodies, or null. */
export async function getMessage(db: Db, id: string): Promise<MessageDetail | null> {
  if (!z.uuid().safeParse(id).success) return null;
  const [row] = await db.select().from(customerMessages).where(eq(customerMessages.id, id));
  return row ?? null;
}
