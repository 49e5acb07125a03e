import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { events } from "../../../src/db/schema/index.js";
import { createLogger } from "../../../src/logger/index.js";
import { dispatchDueMessages, type MessageContext, smtpTransport } from "../../../src/messages/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { chargeStatuses, createSubscription } from "../charging/fixtures.js";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.js";
import { closeMessages, messageRow, messageRows, useMessages } from "./support.js";

/**
 * An SMTP server that says "later" (4xx) or is not there loses no message: it stays pending and
 * goes out once the server takes it. One that refuses for good (5xx) fails the message at once,
 * with the server's reply and a message.failed event. Sends run inline (dispatchDueMessages without
 * a queue), so each step's outcome is known when it returns; the billing clock moves the retries.
 */
describe("customer messages when the SMTP server is unwell", () => {
  let h: EngineHarness;
  let smtp: TestSmtpServer;
  let messages: MessageContext;

  beforeEach(async () => {
    smtp = await startSmtpServer();
    h = await createEngineHarness();
    messages = useMessages(h, { SMTP_URL: smtp.url });
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
  });
  afterEach(async () => {
    await h?.close();
    if (h) await closeMessages(h);
    await smtp?.stop();
  });

  /** A paid first period: its receipt is pending in the outbox. */
  async function pendingReceipt(): Promise<string> {
    const sub = await createSubscription(h);
    await runBillingTick(h.ctx, { batchSize: 10 });
    await chargeStatuses(h, sub.subscriptionId, ["paid"]);
    const [row] = (await messageRows(h)).filter(
      (message) => message.kind === "receipt" && message.customerId === sub.customerId,
    );
    expect(row).toMatchObject({ status: "pending", attempts: 0 });
    return row!.id;
  }

  const dispatch = () => dispatchDueMessages(messages, { limit: 10 });

  it("keeps a message the server answers 451 to, and sends it once the server takes mail again", async () => {
    const id = await pendingReceipt();
    smtp.mode = "451";

    const first = await dispatch();
    expect(first.outcomes).toMatchObject([{ status: "retry_scheduled", attempts: 1 }]);
    let row = await messageRow(h, id);
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.lastResponse).toContain("451");
    expect(row.nextAttemptAt).toEqual(h.clock.now().plus({ minutes: 1 }).toJSDate());

    // Still refused a minute later; then, its backoff doubled, the server is back.
    h.clock.advance({ minutes: 1 });
    expect((await dispatch()).outcomes).toMatchObject([{ status: "retry_scheduled", attempts: 2 }]);
    smtp.mode = "accept";
    expect((await dispatch()).outcomes).toEqual([]);
    h.clock.advance({ minutes: 2 });
    expect((await dispatch()).outcomes).toMatchObject([{ status: "sent", attempts: 3 }]);

    row = await messageRow(h, id);
    expect(row).toMatchObject({ status: "sent", attempts: 3, nextAttemptAt: null });
    expect(row.sentAt).toEqual(h.clock.now().toJSDate());
    expect(row.lastResponse).toMatch(/^250 /);
    expect(smtp.dataReceived).toBe(3);
    expect(smtp.accepted.map((mail) => mail.messageId)).toEqual([row.messageId]);
    h.clock.advance({ hours: 6 });
    expect((await dispatch()).outcomes).toEqual([]);
    expect(smtp.accepted).toHaveLength(1);
  });

  it("keeps a message while the server is down, and sends it once it is back", async () => {
    const id = await pendingReceipt();
    await smtp.stop();

    expect((await dispatch()).outcomes).toMatchObject([{ status: "retry_scheduled", attempts: 1 }]);
    const waiting = await messageRow(h, id);
    expect(waiting.status).toBe("pending");
    expect(waiting.lastResponse).toMatch(/ECONNREFUSED/);
    // Rendered once, at the first attempt, whatever became of the send.
    expect(waiting.subject).toMatch(/^Receipt RCT-000001 /);
    expect(waiting.messageId).toMatch(/^<msg-[0-9a-f-]{36}@localhost>$/);

    await smtp.start();
    h.clock.advance({ minutes: 1 });
    expect((await dispatch()).outcomes).toMatchObject([{ status: "sent", attempts: 2 }]);
    const sent = await messageRow(h, id);
    expect(sent).toMatchObject({ status: "sent", subject: waiting.subject, messageId: waiting.messageId });
    expect(smtp.accepted.map((mail) => mail.messageId)).toEqual([waiting.messageId]);
  });

  it("fails a message the server refuses with 550, with its reply and a message.failed event", async () => {
    const id = await pendingReceipt();
    smtp.mode = "550";

    expect((await dispatch()).outcomes).toMatchObject([{ status: "failed", attempts: 1 }]);
    const row = await messageRow(h, id);
    expect(row).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null, sentAt: null });
    expect(row.lastResponse).toContain("550 5.1.1 Mailbox unavailable");
    expect(smtp.accepted).toHaveLength(0);

    const recorded = await h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.type, "message.failed"), eq(events.customerId, row.customerId)));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ chargeId: row.chargeId, actor: "messages" });
    expect(recorded[0]!.data).toMatchObject({
      message_id: id,
      kind: "receipt",
      to: row.toAddress,
      response: row.lastResponse,
    });

    h.clock.advance({ hours: 6 });
    expect((await dispatch()).outcomes).toEqual([]);
  });

  it("never writes down the SMTP password: a refused login is retried, and logged by host", async () => {
    const login = await startSmtpServer({ refuseLogin: true });
    const lines: string[] = [];
    try {
      await messages.transport?.close();
      messages.transport = smtpTransport(`smtp://billing:s3cret-pass@127.0.0.1:${login.port}`);
      messages.logger = createLogger({ level: "debug" }, { write: (line: string) => void lines.push(line) });
      const id = await pendingReceipt();

      expect((await dispatch()).outcomes).toMatchObject([{ status: "retry_scheduled", attempts: 1 }]);
      const row = await messageRow(h, id);
      expect(row.lastResponse).toContain("535");
      expect(lines.join("\n")).toContain(`127.0.0.1:${login.port}`);
      for (const written of [...lines, JSON.stringify(row)]) expect(written).not.toContain("s3cret");
    } finally {
      await login.stop();
    }
  });

  it("fails a message whose retries run out, and records message.sent for one that goes out", async () => {
    messages.config = { ...messages.config, MESSAGE_MAX_ATTEMPTS: 2 };
    const id = await pendingReceipt();
    smtp.mode = "451";
    expect((await dispatch()).outcomes).toMatchObject([{ status: "retry_scheduled", attempts: 1 }]);
    h.clock.advance({ minutes: 1 });
    expect((await dispatch()).outcomes).toMatchObject([{ status: "failed", attempts: 2 }]);
    expect((await messageRow(h, id)).lastResponse).toContain("451");

    smtp.mode = "accept";
    const second = await pendingReceipt();
    expect((await dispatch()).outcomes).toMatchObject([{ status: "sent", messageId: second }]);
    const [sentEvent] = await h.ctx.db.select().from(events).where(eq(events.type, "message.sent"));
    expect(sentEvent!.data).toMatchObject({
      message_id: second,
      kind: "receipt",
      response: expect.stringMatching(/^250 /),
    });
  });
});
