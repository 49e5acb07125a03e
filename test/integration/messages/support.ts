import { asc, eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { expect, vi } from "vitest";
import { closeEngineMessages, engineMessages } from "../../../src/app/messages.js";
import type { Config } from "../../../src/config/index.js";
import { customerMessages } from "../../../src/db/schema/index.js";
import type { MessageContext } from "../../../src/messages/index.js";
import type { EngineHarness } from "../../support/engine.js";

/**
 * The customer messages of a test engine, built by the composition root as a process builds them
 * (src/app/messages.ts: its links, renderer and SMTP transport), with settings of the test's own
 * (SMTP_URL pointing at the test's SMTP server, quiet hours, …).
 */
export function useMessages(h: EngineHarness, settings: Partial<Config> = {}): MessageContext {
  h.ctx.config = { ...h.ctx.config, ...settings };
  return engineMessages(h.ctx);
}

export function closeMessages(h: EngineHarness): Promise<void> {
  return closeEngineMessages(h.ctx);
}

export function messageRows(h: EngineHarness) {
  return h.ctx.db
    .select()
    .from(customerMessages)
    .orderBy(asc(customerMessages.createdAt), asc(customerMessages.id));
}

export async function messageRow(h: EngineHarness, id: string) {
  const [row] = await h.ctx.db.select().from(customerMessages).where(eq(customerMessages.id, id));
  if (!row) throw new Error(`no message ${id}`);
  return row;
}

/** Polls until `check` passes (no fixed sleeps): workers run in the background. */
export function eventually<T>(check: () => Promise<T> | T, timeout = 15_000): Promise<T> {
  return vi.waitFor(check, { timeout, interval: 25 });
}

/** The mails a server received carrying the Message-ID of one of these rows. */
export function mailsOf(mails: readonly ParsedMail[], rows: readonly { messageId: string | null }[]) {
  const ids = new Set(rows.map((row) => row.messageId));
  return mails.filter((mail) => ids.has(mail.messageId ?? ""));
}

/** Every link in a plain-text body. */
export function linksIn(text: string | undefined): string[] {
  return [...(text ?? "").matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
}

export function expectNoDuplicates(mails: readonly ParsedMail[]): void {
  const ids = mails.map((mail) => mail.messageId);
  expect(new Set(ids).size).toBe(ids.length);
}
