import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { DateTime } from "luxon";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { EVENT_TYPES, isWebhookEventType, recordEvent, recordEvents } from "../../src/events/index.js";
import {
  createWebhookEndpoint,
  disableWebhookEndpoint,
  listDeliveries,
  listWebhookEndpoints,
} from "../../src/webhooks/index.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";
import { disableAllEndpoints, seedCustomerAndPlan, webhookTestContext } from "./fixtures.js";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterEach(() => disableAllEndpoints(t.db));
afterAll(() => t?.drop());

const occurredAt = DateTime.fromISO("2025-03-01T09:30:00.000Z", { zone: "utc" });

async function counts() {
  const [row] = await t.sql<{ events: string; deliveries: string }[]>`
    select (select count(*) from events) as events, (select count(*) from webhook_deliveries) as deliveries`;
  return { events: Number(row!.events), deliveries: Number(row!.deliveries) };
}

describe("the webhook outbox in recordEvent", () => {
  it("creates one pending delivery per enabled endpoint, with the public body, in the same transaction", async () => {
    const { customer } = await seedCustomerAndPlan(t.db);
    const first = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "https://merchant.example/hooks",
    });
    const second = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "http://backup.example/hooks",
    });
    const disabled = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "https://old.example/hooks",
    });
    await disableWebhookEndpoint(t.db, disabled.id);

    const event = await t.db.transaction((tx) =>
      recordEvent(tx, {
        type: EVENT_TYPES.chargeSucceeded,
        actor: "gateway",
        occurredAt,
        customerId: customer.id,
        data: { amount_minor: 10_000, currency: "QAR", customer_id: "overridden by the column" },
      }),
    );

    const deliveries = await listDeliveries(t.db, { eventId: event.id });
    expect(deliveries.map((d) => d.endpointId).sort()).toEqual([first.id, second.id].sort());
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({
        eventType: "charge.succeeded",
        status: "pending",
        attempts: 0,
        lastStatusCode: null,
        deliveredAt: null,
        nextAttemptAt: occurredAt.toJSDate(),
        payload: {
          id: `evt_${event.id}`,
          type: "charge.succeeded",
          created_at: "2025-03-01T09:30:00.000Z",
          data: { amount_minor: 10_000, currency: "QAR", customer_id: customer.id },
        },
      });
    }
  });

  it("creates none for an internal event type", async () => {
    await createWebhookEndpoint(webhookTestContext(t.db), { url: "https://merchant.example/hooks" });

    for (const type of ["enrollment.completed", "charge.attempt_started", "charge.needs_review"]) {
      expect(isWebhookEventType(type)).toBe(false);
      const event = await recordEvent(t.db, { type, actor: "system", occurredAt });
      expect(await listDeliveries(t.db, { eventId: event.id })).toEqual([]);
    }
  });

  it("creates none when no endpoint is enabled, and still records the event", async () => {
    const event = await recordEvent(t.db, { type: EVENT_TYPES.invoiceCreated, actor: "system", occurredAt });

    expect(event.id).toBeGreaterThan(0);
    expect(await listDeliveries(t.db, { eventId: event.id })).toEqual([]);
  });

  it("leaves neither event nor delivery when the transaction rolls back", async () => {
    await createWebhookEndpoint(webhookTestContext(t.db), { url: "https://merchant.example/hooks" });
    const before = await counts();

    const failure = t.db
      .transaction(async (tx) => {
        await recordEvent(tx, { type: EVENT_TYPES.subscriptionCanceled, actor: "api:key_1", occurredAt });
        expect((await tx.execute(sql`select count(*)::int as n from webhook_deliveries`))[0]).toEqual({
          n: before.deliveries + 1,
        });
        throw new Error("the change this event records failed");
      })
      .catch((error: unknown) => error);

    expect(await failure).toBeInstanceOf(Error);
    expect(await counts()).toEqual(before);
  });

  it("writes event and deliveries atomically when given the pool instead of a transaction", async () => {
    const endpoint = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "https://merchant.example/hooks",
    });

    const event = await recordEvent(t.db, {
      type: EVENT_TYPES.subscriptionPastDue,
      actor: "system",
      occurredAt,
    });

    expect(await listDeliveries(t.db, { eventId: event.id, endpointId: endpoint.id })).toHaveLength(1);
  });
});

describe("webhook endpoints", () => {
  it("generate a whsec_ secret when none is given, and keep a given one", async () => {
    const generated = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "https://merchant.example/a",
    });
    const given = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "https://merchant.example/b",
      secret: "whsec_my_own_secret_value",
    });

    expect(generated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(given.secret).toBe("whsec_my_own_secret_value");
    expect(generated.enabled).toBe(true);
  });

  it("refuse a URL that is not http(s), and a short secret", async () => {
    await expect(
      createWebhookEndpoint(webhookTestContext(t.db), { url: "ftp://merchant.example/a" }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      createWebhookEndpoint(webhookTestContext(t.db), { url: "not a url" }),
    ).rejects.toBeInstanceOf(ZodError);
    await expect(
      createWebhookEndpoint(webhookTestContext(t.db), { url: "https://merchant.example/a", secret: "short" }),
    ).rejects.toBeInstanceOf(ZodError);
  });

  it("are listed without their secrets", async () => {
    const endpoint = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "https://merchant.example/listed",
    });

    const listed = (await listWebhookEndpoints(t.db)).find((e) => e.id === endpoint.id);

    expect(listed).toEqual({
      id: endpoint.id,
      url: endpoint.url,
      enabled: true,
      createdAt: endpoint.createdAt,
    });
    expect(JSON.stringify(await listWebhookEndpoints(t.db))).not.toContain("whsec_");
  });

  it("when disabled, fail their pending deliveries and receive no new ones", async () => {
    const endpoint = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "https://merchant.example/hooks",
    });
    const before = await recordEvent(t.db, { type: EVENT_TYPES.chargeFailed, actor: "gateway", occurredAt });

    expect(await disableWebhookEndpoint(t.db, endpoint.id)).toBe(true);
    const after = await recordEvent(t.db, { type: EVENT_TYPES.chargeFailed, actor: "gateway", occurredAt });

    const [failed] = await listDeliveries(t.db, { eventId: before.id });
    expect(failed).toMatchObject({ status: "failed", nextAttemptAt: null, lastError: "endpoint disabled" });
    expect(await listDeliveries(t.db, { eventId: after.id })).toEqual([]);
    expect(await disableWebhookEndpoint(t.db, randomUUID())).toBe(false);
  });
});

describe("listDeliveries", () => {
  it("filters by event, endpoint and status together", async () => {
    const a = await createWebhookEndpoint(webhookTestContext(t.db), { url: "https://a.example/hooks" });
    const b = await createWebhookEndpoint(webhookTestContext(t.db), { url: "https://b.example/hooks" });
    const first = await recordEvent(t.db, {
      type: EVENT_TYPES.chargeRetryScheduled,
      actor: "system",
      occurredAt,
    });
    const second = await recordEvent(t.db, {
      type: EVENT_TYPES.subscriptionUnpaid,
      actor: "system",
      occurredAt,
    });
    await disableWebhookEndpoint(t.db, b.id);

    const ofA = await listDeliveries(t.db, { endpointId: a.id });
    const pendingOfSecond = await listDeliveries(t.db, { eventId: second.id, status: "pending" });
    const failedOfB = await listDeliveries(t.db, { endpointId: b.id, status: "failed" });

    expect(ofA.map((d) => d.eventId)).toEqual([first.id, second.id]);
    expect(pendingOfSecond.map((d) => d.endpointId)).toEqual([a.id]);
    expect(failedOfB.map((d) => d.eventId)).toEqual([first.id, second.id]);
  });
});

describe("recordEvents, the many-event form", () => {
  it("pairs each input with its id, and gives webhook-worthy events the same deliveries as recordEvent", async () => {
    const { customer } = await seedCustomerAndPlan(t.db);
    const endpoint = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "https://merchant.example/many",
    });
    const later = occurredAt.plus({ minutes: 5 });

    const ids = await t.sql.begin((tx) =>
      recordEvents(tx, [
        { type: "charge.attempt_started", actor: "system", occurredAt, data: { attempt: 1 } },
        { type: EVENT_TYPES.chargeSucceeded, actor: "gateway", occurredAt: later, customerId: customer.id },
        { type: EVENT_TYPES.chargeFailed, actor: "gateway", occurredAt, data: { attempt: 2 } },
      ]),
    );

    expect(ids).toHaveLength(3);
    const rows = await t.sql<{ id: string; type: string; data: { attempt?: number } }[]>`
      select id, type, data from events where id = any(${ids.map(String)}::bigint[]) order by id`;
    expect(rows.map((r) => [Number(r.id), r.type, r.data.attempt])).toEqual([
      [ids[0], "charge.attempt_started", 1],
      [ids[1], "charge.succeeded", undefined],
      [ids[2], "charge.failed", 2],
    ]);
    const succeeded = await listDeliveries(t.db, { eventId: ids[1]! });
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]).toMatchObject({
      endpointId: endpoint.id,
      eventType: "charge.succeeded",
      nextAttemptAt: later.toJSDate(),
      payload: { id: `evt_${ids[1]}`, type: "charge.succeeded", data: { customer_id: customer.id } },
    });
    expect(await listDeliveries(t.db, { eventId: ids[0]! })).toHaveLength(0);
    expect(await listDeliveries(t.db, { eventId: ids[2]! })).toHaveLength(1);
  });

  it("sends no delivery statement when no endpoint is enabled, and still records the events", async () => {
    const { customer } = await seedCustomerAndPlan(t.db);
    const disabled = await createWebhookEndpoint(webhookTestContext(t.db), {
      url: "https://merchant.example/off",
    });
    await disableWebhookEndpoint(t.db, disabled.id);
    const sent: string[] = [];
    const pool = postgres(t.url, { max: 1, debug: (_c, query) => sent.push(query) });
    try {
      const before = await counts();
      const ids = await pool.begin((tx) =>
        recordEvents(tx, [
          { type: EVENT_TYPES.chargeSucceeded, actor: "gateway", occurredAt, customerId: customer.id },
          { type: EVENT_TYPES.chargeFailed, actor: "gateway", occurredAt, data: { attempt: 2 } },
        ]),
      );
      expect(ids).toHaveLength(2);
      expect(await counts()).toEqual({ events: before.events + 2, deliveries: before.deliveries });
      expect(sent.filter((query) => query.includes("webhook_deliveries"))).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it("records nothing for an empty list", async () => {
    const before = await counts();
    expect(await t.sql.begin((tx) => recordEvents(tx, []))).toEqual([]);
    expect(await counts()).toEqual(before);
  });
});
