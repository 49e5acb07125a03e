import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControllableClock } from "../../src/clock/index.js";
import { webhookDeliveries, webhookEndpoints } from "../../src/db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../../src/events/index.js";
import { createLogger, silentLogger } from "../../src/logger/index.js";
import {
  createWebhookEndpoint,
  deliverWebhook,
  dispatchDueWebhooks,
  listDeliveries,
  type ResolveHost,
  type WebhookContext,
  type WebhookDelivery,
} from "../../src/webhooks/index.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";
import { disableAllEndpoints, RECEIVER_HOSTS, webhookTestContext } from "./fixtures.js";
import { WebhookReceiver } from "./receiver.js";

let t: TestDatabase;
let receiver: WebhookReceiver;
let clock: ControllableClock;

beforeAll(async () => {
  t = await createTestDatabase();
});
beforeEach(async () => {
  receiver = await WebhookReceiver.start();
  // Near the wall clock, so signature timestamps and billing times tell the same story.
  clock = new ControllableClock();
});
afterEach(async () => {
  await receiver.close();
  await disableAllEndpoints(t.db);
});
afterAll(() => t?.drop());

const context = (overrides: Partial<WebhookContext> = {}): WebhookContext => ({
  ...webhookTestContext(t.db, RECEIVER_HOSTS),
  clock,
  logger: silentLogger,
  timeoutMs: 2_000,
  ...overrides,
});

/** An endpoint at `url` (the receiver by default) and one event for it; returns its delivery. */
async function oneDelivery(url = receiver.url): Promise<WebhookDelivery> {
  const endpoint = await createWebhookEndpoint(context(), { url });
  receiver.secret = endpoint.secret;
  const event = await recordEvent(t.db, {
    type: EVENT_TYPES.subscriptionActivated,
    actor: "system",
    occurredAt: clock.now(),
    data: { plan: "monthly" },
  });
  const [delivery] = await listDeliveries(t.db, { eventId: event.id, endpointId: endpoint.id });
  return delivery!;
}

async function reload(id: string): Promise<WebhookDelivery> {
  const [row] = await t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row!;
}

const millisAfterNow = (at: Date | null) => (at?.getTime() ?? Number.NaN) - clock.now().toMillis();

describe("deliverWebhook", () => {
  it("POSTs the signed event, which the receiver verifies, and marks it delivered", async () => {
    const delivery = await oneDelivery();

    const outcome = await deliverWebhook(context(), delivery.id);

    expect(outcome).toEqual({ status: "delivered", deliveryId: delivery.id, attempts: 1, statusCode: 200 });
    const [request] = await receiver.waitForCount(1);
    expect(request!.verification).toEqual({ ok: true, timestamp: expect.any(Number) });
    expect(request!.headers).toMatchObject({
      "content-type": "application/json",
      "billing-event-id": `evt_${delivery.eventId}`,
      "billing-event-type": "subscription.activated",
    });
    expect(request!.body).toEqual(delivery.payload);
    expect(await reload(delivery.id)).toMatchObject({
      status: "delivered",
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: clock.now().toJSDate(),
    });
  });

  it("does not send a delivery again once it is delivered", async () => {
    const delivery = await oneDelivery();
    await deliverWebhook(context(), delivery.id);

    const again = await deliverWebhook(context(), delivery.id);

    expect(again).toEqual({ status: "skipped", deliveryId: delivery.id, reason: "not_pending" });
    expect(receiver.received).toHaveLength(1);
  });

  it("sends once when two workers race for the same delivery", async () => {
    const delivery = await oneDelivery();

    const outcomes = await Promise.all([
      deliverWebhook(context(), delivery.id),
      deliverWebhook(context(), delivery.id),
    ]);

    expect(outcomes.map((o) => o.status).sort()).toEqual(["delivered", "skipped"]);
    expect(receiver.received).toHaveLength(1);
  });

  it("retries a failing endpoint on the backoff schedule until it recovers", async () => {
    receiver.respond = (n) => (n <= 2 ? 500 : 200);
    const delivery = await oneDelivery();
    const ctx = context();

    const first = await dispatchDueWebhooks(ctx, { limit: 10 });

    expect(first.outcomes).toMatchObject([{ status: "retry_scheduled", attempts: 1, statusCode: 500 }]);
    let row = await reload(delivery.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500 });
    expect(row.lastError).toBe("HTTP 500: thanks");
    // 30 s, less up to 20 % jitter.
    expect(millisAfterNow(row.nextAttemptAt)).toBeGreaterThanOrEqual(24_000);
    expect(millisAfterNow(row.nextAttemptAt)).toBeLessThanOrEqual(30_000);

    clock.set(DateTime.fromJSDate(row.nextAttemptAt!).minus({ milliseconds: 1 }));
    expect((await dispatchDueWebhooks(ctx, { limit: 10 })).deliveryIds).toEqual([]);
    clock.set(row.nextAttemptAt!);
    const second = await dispatchDueWebhooks(ctx, { limit: 10 });

    expect(second.outcomes).toMatchObject([{ status: "retry_scheduled", attempts: 2, statusCode: 500 }]);
    row = await reload(delivery.id);
    expect(millisAfterNow(row.nextAttemptAt)).toBeGreaterThanOrEqual(48_000);
    expect(millisAfterNow(row.nextAttemptAt)).toBeLessThanOrEqual(60_000);

    clock.set(row.nextAttemptAt!);
    const third = await dispatchDueWebhooks(ctx, { limit: 10 });

    expect(third.outcomes).toEqual([
      { status: "delivered", deliveryId: delivery.id, attempts: 3, statusCode: 200 },
    ]);
    expect(await reload(delivery.id)).toMatchObject({
      status: "delivered",
      attempts: 3,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: clock.now().toJSDate(),
    });
    expect(receiver.received.map((r) => r.headers["billing-event-id"])).toEqual(
      Array(3).fill(`evt_${delivery.eventId}`),
    );
    expect(receiver.received.every((r) => r.verification.ok)).toBe(true);
  });

  it("gives up after the last of ten attempts and marks the delivery failed", async () => {
    receiver.respond = () => 503;
    const delivery = await oneDelivery();
    const ctx = context();
    const statuses: string[] = [];

    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const { outcomes } = await dispatchDueWebhooks(ctx, { limit: 10 });
      statuses.push(...outcomes.map((o) => o.status));
      const { nextAttemptAt } = await reload(delivery.id);
      if (nextAttemptAt) clock.set(nextAttemptAt);
    }

    expect(statuses).toEqual([...Array(9).fill("retry_scheduled"), "failed"]);
    expect(await reload(delivery.id)).toMatchObject({
      status: "failed",
      attempts: 10,
      lastStatusCode: 503,
      nextAttemptAt: null,
      deliveredAt: null,
    });
    clock.advance({ days: 1 });
    expect((await dispatchDueWebhooks(ctx, { limit: 10 })).deliveryIds).toEqual([]);
    expect(receiver.received).toHaveLength(10);
  });

  it("records a refused connection as a failed attempt without a status code", async () => {
    const closed = await WebhookReceiver.start();
    const url = closed.url;
    await closed.close();
    const delivery = await oneDelivery(url);

    const outcome = await deliverWebhook(context(), delivery.id);

    expect(outcome).toMatchObject({ status: "retry_scheduled", attempts: 1, statusCode: null });
    expect(await reload(delivery.id)).toMatchObject({ attempts: 1, lastStatusCode: null });
    expect((await reload(delivery.id)).lastError).toMatch(/ECONNREFUSED/);
  });

  it("records an endpoint that does not answer in time as a failed attempt", async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as AddressInfo;
      const delivery = await oneDelivery(`http://127.0.0.1:${port}/hooks`);

      const outcome = await deliverWebhook(context({ timeoutMs: 200 }), delivery.id);

      expect(outcome).toMatchObject({ status: "retry_scheduled", error: "no response within 200 ms" });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("treats a redirect as a failure rather than following it", async () => {
    receiver.respond = () => 302;
    const delivery = await oneDelivery();

    const outcome = await deliverWebhook(context(), delivery.id);

    expect(outcome).toMatchObject({ status: "retry_scheduled", statusCode: 302 });
  });

  it("fails, without sending, a delivery whose endpoint was disabled after it was queued", async () => {
    const delivery = await oneDelivery();
    await t.db
      .update(webhookEndpoints)
      .set({ enabled: false })
      .where(eq(webhookEndpoints.id, delivery.endpointId));

    const outcome = await deliverWebhook(context(), delivery.id);

    expect(outcome).toMatchObject({ status: "failed", attempts: 0, error: "endpoint disabled" });
    expect(receiver.received).toHaveLength(0);
  });

  it("logs each attempt, without the secret or the URL's query string", async () => {
    receiver.respond = () => 500;
    const lines: string[] = [];
    const logger = createLogger({ level: "debug" }, { write: (line: string) => void lines.push(line) });
    const delivery = await oneDelivery(`${receiver.url}?token=merchant-query-token`);

    await deliverWebhook(context({ logger }), delivery.id);

    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: "webhook attempt failed; will retry",
        deliveryId: delivery.id,
        attempt: 1,
        statusCode: 500,
        url: receiver.url,
      }),
    );
    expect(lines.join("\n")).not.toContain(receiver.secret);
    expect(lines.join("\n")).not.toContain("merchant-query-token");
  });
});

describe("deliverWebhook and the address policy", () => {
  const resolveTo =
    (address: string): ResolveHost =>
    async () => [{ address, family: 4 }];

  it("refuses, without connecting, an endpoint at an address no longer allow-listed", async () => {
    const delivery = await oneDelivery();

    const outcome = await deliverWebhook(context({ config: { WEBHOOK_ALLOWED_HOSTS: [] } }), delivery.id);

    expect(outcome).toMatchObject({ status: "retry_scheduled", attempts: 1, statusCode: null });
    expect((await reload(delivery.id)).lastError).toMatch(
      /^destination refused: 127\.0\.0\.1 is a loopback address, which webhooks are not sent to/,
    );
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses a name that resolved to a public address when registered and to loopback now", async () => {
    const port = new URL(receiver.url).port;
    const url = `http://rebind.example:${port}/hooks`;
    const endpoint = await createWebhookEndpoint(
      { ...context(), config: { WEBHOOK_ALLOWED_HOSTS: [] }, resolve: resolveTo("203.0.113.10") },
      { url },
    );
    const event = await recordEvent(t.db, {
      type: EVENT_TYPES.subscriptionActivated,
      actor: "system",
      occurredAt: clock.now(),
      data: {},
    });
    const [delivery] = await listDeliveries(t.db, { eventId: event.id, endpointId: endpoint.id });
    // The last attempt: a refusal ends the delivery like any other failure once attempts run out.
    const rebound = context({
      config: { WEBHOOK_ALLOWED_HOSTS: [] },
      resolve: resolveTo("127.0.0.1"),
      retry: { maxAttempts: 1 },
    });

    const outcome = await deliverWebhook(rebound, delivery!.id);

    expect(outcome).toMatchObject({ status: "failed", attempts: 1, statusCode: null });
    expect(await reload(delivery!.id)).toMatchObject({
      status: "failed",
      lastError: expect.stringMatching(
        /^destination refused: rebind\.example resolves to 127\.0\.0\.1, a loopback address/,
      ),
    });
    expect(receiver.received).toHaveLength(0);
  });

  it("connects to the address it vetted: an allow-listed network reached by name", async () => {
    const port = new URL(receiver.url).port;
    const delivery = await oneDelivery(`http://receiver.example:${port}/hooks`);

    const outcome = await deliverWebhook(context({ resolve: resolveTo("127.0.0.1") }), delivery.id);

    expect(outcome).toMatchObject({ status: "delivered", statusCode: 200 });
    const [request] = await receiver.waitForCount(1);
    expect(request!.headers.host).toBe(`receiver.example:${port}`);
    expect(request!.verification.ok).toBe(true);
  });
});
