import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { customers, events } from "../../../src/db/schema/index.js";
import {
  dispatchDueMessages,
  getMessage,
  KEPT_RESPONSE,
  listMessages,
  type MessageContext,
  resendMessage,
} from "../../../src/messages/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { chargeStatuses, createSubscription } from "../charging/fixtures.js";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.js";
import { closeMessages, messageRow, messageRows, useMessages } from "./support.js";

/**
 * Without SMTP_URL messages are rendered and kept for the mailbox, never sent; a kept message can
 * be resent and the mailbox lists them. With quiet hours a message waits until they end on the
 * customer's own clock. Sends run inline; the billing clock moves time.
 */
describe("kept messages, the mailbox and quiet hours", () => {
  let h: EngineHarness;
  let smtp: TestSmtpServer | undefined;

  afterEach(async () => {
    await h?.close();
    if (h) await closeMessages(h);
    await smtp?.stop();
    smtp = undefined;
  });

  async function start(
    at: string,
    settings: Parameters<typeof useMessages>[1] = {},
  ): Promise<MessageContext> {
    h = await createEngineHarness({ start: at });
    const messages = useMessages(h, settings);
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
    return messages;
  }

  /** A paid first period for a new customer (in `timeZone`); its receipt's message id. */
  async function paidCustomer(timeZone: string | null = null) {
    const sub = await createSubscription(h);
    await h.ctx.db.update(customers).set({ timeZone }).where(eq(customers.id, sub.customerId));
    await runBillingTick(h.ctx, { batchSize: 10 });
    await chargeStatuses(h, sub.subscriptionId, ["paid"]);
    const row = (await messageRows(h)).find((message) => message.customerId === sub.customerId);
    return { customerId: sub.customerId, messageId: row!.id };
  }

  it("keeps messages rendered, but unsent, when no SMTP server is configured", async () => {
    const messages = await start("2026-01-15T09:00:00Z");
    expect(messages.transport).toBeNull();
    const { messageId } = await paidCustomer();

    expect((await dispatchDueMessages(messages, { limit: 10 })).outcomes).toEqual([
      { status: "kept", messageId },
    ]);
    const row = await messageRow(h, messageId);
    expect(row).toMatchObject({ status: "kept", attempts: 1, nextAttemptAt: null, sentAt: null });
    expect(row.lastResponse).toBe(KEPT_RESPONSE);
    expect(row.subject).toBe("Receipt RCT-000001 from Billing — QAR 100.00");
    expect(row.textBody).toContain("Receipt number: RCT-000001");
    expect(row.htmlBody).toContain("<html");
    expect(row.messageId).toMatch(/^<msg-.+@localhost>$/);
    expect(await h.ctx.db.select().from(events).where(eq(events.type, "message.sent"))).toEqual([]);
  });

  it("resends a message to the customer's current address, rendered afresh, and lists the mailbox", async () => {
    const messages = await start("2026-01-15T09:00:00Z");
    const { customerId, messageId } = await paidCustomer();
    await paidCustomer();
    await dispatchDueMessages(messages, { limit: 10 });
    await h.ctx.db
      .update(customers)
      .set({ email: "new-address@example.com" })
      .where(eq(customers.id, customerId));

    const copy = await resendMessage(messages, messageId, "ops:alice");
    expect(copy).toMatchObject({
      status: "pending",
      resendOf: messageId,
      requestedBy: "ops:alice",
      kind: "receipt",
      toAddress: "new-address@example.com",
      subject: null,
    });
    expect(await resendMessage(messages, "00000000-0000-4000-8000-000000000000", "ops:alice")).toBeNull();
    await dispatchDueMessages(messages, { limit: 10 });
    const resent = await getMessage(h.ctx.db, copy!.id);
    const original = await getMessage(h.ctx.db, messageId);
    expect(resent).toMatchObject({
      status: "kept",
      subject: original!.subject,
      textBody: original!.textBody,
    });
    expect(resent!.messageId).not.toBe(original!.messageId);

    const mine = await listMessages(h.ctx.db, { customerId });
    expect(mine.messages.map((message) => message.id)).toEqual([copy!.id, messageId]);
    expect(mine.nextCursor).toBeNull();
    expect(mine.messages[0]).not.toHaveProperty("htmlBody");
    const all = await listMessages(h.ctx.db, { status: "kept", kind: "receipt", limit: 2 });
    expect(all.messages).toHaveLength(2);
    const rest = await listMessages(h.ctx.db, {
      status: "kept",
      kind: "receipt",
      limit: 2,
      cursor: all.nextCursor!,
    });
    expect([...all.messages, ...rest.messages].map((message) => message.id).sort()).toEqual(
      (await messageRows(h)).map((row) => row.id).sort(),
    );
    expect(rest.nextCursor).toBeNull();
    expect((await listMessages(h.ctx.db, { status: "sent" })).messages).toEqual([]);
  });

  it("holds a message until quiet hours end on the customer's clock", async () => {
    smtp = await startSmtpServer();
    // 19:00 UTC is 22:00 in Qatar (quiet from 21 to 8) but 19:00 in London (not quiet).
    const messages = await start("2026-01-15T19:00:00Z", {
      SMTP_URL: smtp.url,
      MESSAGE_QUIET_HOURS: { start: 21, end: 8 },
    });
    const qatar = await paidCustomer();
    const london = await paidCustomer("Europe/London");

    const first = await dispatchDueMessages(messages, { limit: 10 });
    expect(first.outcomes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: "held", messageId: qatar.messageId, attempts: 0 }),
        expect.objectContaining({ status: "sent", messageId: london.messageId }),
      ]),
    );
    const held = await messageRow(h, qatar.messageId);
    expect(held).toMatchObject({ status: "pending", attempts: 0, subject: null });
    expect(held.nextAttemptAt).toEqual(new Date("2026-01-16T05:00:00Z"));
    expect(smtp.accepted).toHaveLength(1);

    h.clock.set("2026-01-16T04:59:59Z");
    expect((await dispatchDueMessages(messages, { limit: 10 })).messageIds).toEqual([]);
    h.clock.set("2026-01-16T05:00:00Z");
    expect((await dispatchDueMessages(messages, { limit: 10 })).outcomes).toMatchObject([
      { status: "sent", messageId: qatar.messageId, attempts: 1 },
    ]);
    expect(await messageRow(h, qatar.messageId)).toMatchObject({
      status: "sent",
      sentAt: new Date("2026-01-16T05:00:00Z"),
    });
    expect(smtp.accepted).toHaveLength(2);
  });
});
