import { randomBytes } from "node:crypto";
import { UnrecoverableError } from "bullmq";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Clock, systemClock } from "../../src/clock/index.js";
import { createSharedClock } from "../../src/context/index.js";
import { webhookDeliveries } from "../../src/db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../../src/events/index.js";
import { silentLogger } from "../../src/logger/index.js";
import { createQueueSystem, QUEUE_NAMES, type QueueSystem } from "../../src/queue/index.js";
import {
  createWebhookEndpoint,
  dispatchDueWebhooks,
  listDeliveries,
  type WebhookContext,
  type WebhookDelivery,
  webhookAttemptJobId,
  webhookEnqueuer,
  webhookJobProcessor,
} from "../../src/webhooks/index.js";
import { memoryClockStore } from "../support/clock-store.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";
import { disableAllEndpoints, RECEIVER_HOSTS, webhookTestContext } from "./fixtures.js";
import { WebhookReceiver } from "./receiver.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

let t: TestDatabase;
let receiver: WebhookReceiver;
let system: QueueSystem;

beforeAll(async () => {
  t = await createTestDatabase();
});
beforeEach(async () => {
  receiver = await WebhookReceiver.start();
  system = createQueueSystem({ redisUrl: REDIS_URL, prefix: `webhooks_${randomBytes(5).toString("hex")}` });
});
afterEach(async () => {
  await system.obliterate();
  await system.close();
  await receiver.close();
  await disableAllEndpoints(t.db);
});
afterAll(() => t?.drop());

/** Real time here: BullMQ's delays are real, and a job compares due times with this clock. */
const context = (clock: Clock = systemClock): WebhookContext => ({
  ...webhookTestContext(t.db, RECEIVER_HOSTS),
  clock,
  logger: silentLogger,
  timeoutMs: 2_000,
  retry: { baseDelayMs: 200, jitter: 0 },
});

async function oneDelivery(): Promise<WebhookDelivery> {
  const endpoint = await createWebhookEndpoint(context(), { url: receiver.url });
  receiver.secret = endpoint.secret;
  const event = await recordEvent(t.db, {
    type: EVENT_TYPES.chargeSucceeded,
    actor: "gateway",
    occurredAt: systemClock.now(),
  });
  const [delivery] = await listDeliveries(t.db, { eventId: event.id });
  return delivery!;
}

/** Polls the delivery row until `done` holds, failing after `ms`. */
async function waitForDelivery(
  id: string,
  done: (d: WebhookDelivery) => boolean,
  ms = 10_000,
): Promise<WebhookDelivery> {
  const deadline = Date.now() + ms;
  for (;;) {
    const [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    if (row && done(row)) return row;
    if (Date.now() > deadline) throw new Error(`delivery ${id} did not reach the expected state in ${ms} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function waitForJobState(jobId: string, state: string, ms = 10_000): Promise<void> {
  const queue = system.queue(QUEUE_NAMES.webhooks);
  const deadline = Date.now() + ms;
  while ((await queue.getJobState(jobId)) !== state) {
    if (Date.now() > deadline) throw new Error(`job ${jobId} did not become ${state} in ${ms} ms`);
  }
}

describe("webhooks through BullMQ", () => {
  it("dispatches a due delivery as a job whose worker delivers it", async () => {
    const ctx = context();
    system.worker("webhooks", webhookJobProcessor(ctx, system));
    const delivery = await oneDelivery();

    const { deliveryIds } = await dispatchDueWebhooks(ctx, { limit: 10, enqueue: webhookEnqueuer(system) });

    expect(deliveryIds).toEqual([delivery.id]);
    const [request] = await receiver.waitForCount(1);
    expect(request!.verification.ok).toBe(true);
    expect(await waitForDelivery(delivery.id, (d) => d.status === "delivered")).toMatchObject({
      attempts: 1,
    });
  });

  it("retries on time through the delayed hint job, without another dispatch", async () => {
    receiver.respond = (n) => (n === 1 ? 500 : 204);
    const ctx = context();
    system.worker("webhooks", webhookJobProcessor(ctx, system));
    const delivery = await oneDelivery();

    await dispatchDueWebhooks(ctx, { limit: 10, enqueue: webhookEnqueuer(system) });

    await receiver.waitForCount(2);
    expect(await waitForDelivery(delivery.id, (d) => d.status === "delivered")).toMatchObject({
      attempts: 2,
      lastStatusCode: 204,
    });
  });

  it("reads the shared billing clock afresh for each job: a delivery made due by another process goes out", async () => {
    const store = memoryClockStore(systemClock.now().minus({ hours: 1 }));
    const workerClock = await createSharedClock(store);
    const otherProcess = await createSharedClock(store);
    const ctx = context(workerClock);
    await otherProcess.advance("PT2H");
    const delivery = await oneDelivery();
    system.worker("webhooks", webhookJobProcessor(ctx, system));

    await webhookEnqueuer(system)({ deliveryId: delivery.id, attempt: 1 });

    expect(await waitForDelivery(delivery.id, (d) => d.status === "delivered", 30_000)).toMatchObject({
      attempts: 1,
    });
    expect(receiver.received).toHaveLength(1);
  });

  it("replaces a failed job left by an outage, so the delivery is not stranded behind its id", async () => {
    const ctx = context();
    const delivery = await oneDelivery();
    const jobId = webhookAttemptJobId(delivery.id, 1);
    const outage = system.worker("webhooks", async () => {
      throw new UnrecoverableError("postgres unreachable");
    });
    await dispatchDueWebhooks(ctx, { limit: 10, enqueue: webhookEnqueuer(system) });
    await waitForJobState(jobId, "failed");
    await outage.close();
    system.worker("webhooks", webhookJobProcessor(ctx, system));

    await dispatchDueWebhooks(ctx, { limit: 10, enqueue: webhookEnqueuer(system) });

    expect(await waitForDelivery(delivery.id, (d) => d.status === "delivered")).toMatchObject({
      attempts: 1,
    });
    expect(receiver.received).toHaveLength(1);
  });
});
