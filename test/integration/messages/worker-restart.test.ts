import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import {
  dispatchDueMessages,
  type MailTransport,
  type MessageContext,
  messageEnqueuer,
} from "../../../src/messages/index.js";
import * as roles from "../../../src/runtime/roles.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { chargeStatuses, createSubscription } from "../charging/fixtures.js";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.js";
import {
  closeMessages,
  eventually,
  expectNoDuplicates,
  messageRow,
  messageRows,
  useMessages,
} from "./support.js";

/**
 * Stopping the message worker while the SMTP server holds its reply to DATA lets the send finish
 * and record its outcome, so the worker started next sends nothing again. A process that dies
 * between the server's acceptance and the record sends the message again after its lease, as the
 * same message (same Message-ID), which is what receiving servers deduplicate on.
 */
describe("the message worker stopped mid-send", () => {
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
    smtp?.release();
    await h?.close();
    if (h) await closeMessages(h);
    await smtp?.stop();
  });

  async function pendingReceipts(count: number) {
    for (let index = 0; index < count; index += 1) {
      const sub = await createSubscription(h);
      await runBillingTick(h.ctx, { batchSize: 10 });
      await chargeStatuses(h, sub.subscriptionId, ["paid"]);
    }
    const rows = await messageRows(h);
    expect(rows.map((row) => [row.kind, row.status])).toEqual(Array(count).fill(["receipt", "pending"]));
    return rows.map((row) => row.id);
  }

  const enqueueDue = () =>
    dispatchDueMessages(messages, { limit: 10, enqueue: messageEnqueuer(h.ctx.queues) });

  it("lets the sends in hand finish, and the next worker sends nothing twice", async () => {
    const ids = await pendingReceipts(2);
    smtp.hold();
    const first = await roles.messages(h.ctx);
    expect((await enqueueDue()).messageIds.sort()).toEqual([...ids].sort());
    await eventually(() => expect(smtp.dataReceived).toBe(2));

    const stopped = first.close();
    // The server has the messages but has not answered: nothing is recorded yet.
    for (const id of ids) expect((await messageRow(h, id)).status).toBe("pending");
    smtp.release();
    await stopped;
    for (const id of ids) expect(await messageRow(h, id)).toMatchObject({ status: "sent", attempts: 1 });

    const second = await roles.messages(h.ctx);
    try {
      // Long after any lease would have ended, nothing is due again.
      h.clock.advance({ hours: 12 });
      expect((await enqueueDue()).messageIds).toEqual([]);
    } finally {
      await second.close();
    }
    expect(smtp.accepted).toHaveLength(2);
    expectNoDuplicates(smtp.accepted);
  });

  it("sends a message again after a crash mid-send, as the same message", async () => {
    const [id] = await pendingReceipts(1);
    const transport = messages.transport as MailTransport;
    // The server accepts, then the process dies before it records the outcome.
    messages.transport = {
      server: transport.server,
      close: () => transport.close(),
      send: async (mail) => {
        await transport.send(mail);
        throw new Error("the process died");
      },
    };
    await expect(dispatchDueMessages(messages, { limit: 10 })).rejects.toThrow("the process died");
    const crashed = await messageRow(h, id!);
    expect(crashed).toMatchObject({ status: "pending", attempts: 1 });
    messages.transport = transport;

    // Its lease holds it meanwhile; once the lease is over the message goes again.
    expect((await dispatchDueMessages(messages, { limit: 10 })).messageIds).toEqual([]);
    h.clock.set(crashed.nextAttemptAt!);
    expect((await dispatchDueMessages(messages, { limit: 10 })).outcomes).toMatchObject([
      { status: "sent", attempts: 2 },
    ]);
    expect(smtp.accepted.map((mail) => mail.messageId)).toEqual([crashed.messageId, crashed.messageId]);
    expect(smtp.accepted[1]!.text).toBe(smtp.accepted[0]!.text);
  });
});
