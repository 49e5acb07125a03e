import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { idempotencyKeys, plans } from "../../../src/db/schema/index.js";
import { type ApiHarness, createApiHarness, PLAN_BODY } from "./support.js";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

const withKey = (key: string, body?: unknown) => ({
  headers: { "idempotency-key": key },
  ...(body === undefined ? {} : { body }),
});

async function plansNamed(name: string): Promise<number> {
  return (await api.h.ctx.db.select().from(plans).where(eq(plans.name, name))).length;
}

describe("Idempotency-Key", () => {
  it("replays the first response for the same key and body, creating one plan", async () => {
    const key = randomUUID();
    const body = { ...PLAN_BODY, name: "Replayed" };
    const first = await api.call("POST", "/v1/plans", withKey(key, body));
    expect(first.statusCode).toBe(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();

    const second = await api.call("POST", "/v1/plans", withKey(key, body));
    expect(second.statusCode).toBe(201);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.body).toBe(first.body);
    expect(await plansNamed("Replayed")).toBe(1);
  });

  it("treats the same JSON with its keys in another order as the same request", async () => {
    const key = randomUUID();
    const first = await api.call("POST", "/v1/plans", withKey(key, { ...PLAN_BODY, name: "Reordered" }));
    const reordered = { interval: "month", currency: "QAR", amount: "100.00", name: "Reordered" };
    const second = await api.call("POST", "/v1/plans", withKey(key, reordered));
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.json()).toEqual(first.json());
  });

  it("refuses the same key with another body: 409 idempotency_key_reused, nothing created", async () => {
    const key = randomUUID();
    await api.call("POST", "/v1/plans", withKey(key, { ...PLAN_BODY, name: "Original" }));
    const other = await api.call("POST", "/v1/plans", withKey(key, { ...PLAN_BODY, name: "Impostor" }));
    expect(other.statusCode).toBe(409);
    expect(other.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(other.json()).toMatchObject({ code: "idempotency_key_reused", status: 409 });
    expect(await plansNamed("Impostor")).toBe(0);
  });

  it("refuses the same key on another route", async () => {
    const key = randomUUID();
    const id = randomUUID();
    const paused = await api.call("POST", `/v1/subscriptions/${id}/pause`, withKey(key));
    expect(paused.statusCode).toBe(404);
    const resumed = await api.call("POST", `/v1/subscriptions/${id}/resume`, withKey(key));
    expect(resumed.statusCode).toBe(409);
    expect(resumed.json()).toMatchObject({ code: "idempotency_key_reused" });
  });

  it("keeps keys apart per API key", async () => {
    const key = randomUUID();
    const other = await createApiKey(api.h.ctx.db, { name: "second merchant app" });
    const body = { ...PLAN_BODY, name: "Per key" };
    await api.call("POST", "/v1/plans", withKey(key, body));
    const second = await api.call("POST", "/v1/plans", { ...withKey(key, body), key: other.key });
    expect(second.statusCode).toBe(201);
    expect(second.headers["idempotent-replayed"]).toBeUndefined();
    expect(await plansNamed("Per key")).toBe(2);
  });

  it("replays a refusal too, and never stores a request that failed validation", async () => {
    const key = randomUUID();
    const invalid = await api.call("POST", "/v1/subscriptions", withKey(key, { customer_id: "nope" }));
    expect(invalid.statusCode).toBe(400);
    const unknown = { customer_id: randomUUID(), plan_id: randomUUID() };
    const refused = await api.call("POST", "/v1/subscriptions", withKey(key, unknown));
    expect(refused.statusCode).toBe(422);
    expect(refused.headers["idempotent-replayed"]).toBeUndefined();
    const replayed = await api.call("POST", "/v1/subscriptions", withKey(key, unknown));
    expect(replayed.statusCode).toBe(422);
    expect(replayed.headers["idempotent-replayed"]).toBe("true");
    expect(replayed.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(replayed.json()).toEqual(refused.json());
  });

  it("answers a duplicate that arrives while the first is running with 409 in progress", async () => {
    const plan = (await api.call("POST", "/v1/plans", { body: PLAN_BODY })).json();
    const customer = (
      await api.call("POST", "/v1/customers", { body: { email: "racer@example.qa" } })
    ).json();
    // The gateway takes a while to open the checkout, so the first request is still running.
    await api.h.simAdmin("POST", "/_sim/faults", {
      operation: "AddTransaction",
      kind: "latency",
      latency_ms: 500,
      times: 1,
    });
    const key = randomUUID();
    const body = { customer_id: customer.id, plan_id: plan.id };
    const first = api.call("POST", "/v1/subscriptions", withKey(key, body));
    // Waits until the first request holds the key (its row exists), not for a guessed time.
    await vi.waitFor(
      async () => {
        const held = await api.h.ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
        expect(held).toHaveLength(1);
      },
      { timeout: 5_000, interval: 10 },
    );
    const duplicate = await api.call("POST", "/v1/subscriptions", withKey(key, body));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: "idempotency_key_in_progress" });
    expect(duplicate.headers["retry-after"]).toBe("1");
    expect((await first).statusCode).toBe(201);

    const after = await api.call("POST", "/v1/subscriptions", withKey(key, body));
    expect(after.headers["idempotent-replayed"]).toBe("true");
    expect(after.json().id).toBe((await first).json().id);
    const mine = (await api.call("GET", `/v1/subscriptions?customer_id=${customer.id}`)).json();
    expect(mine.data).toHaveLength(1);
  });

  it("forgets a key after 24 hours of the billing clock", async () => {
    const key = randomUUID();
    const body = { ...PLAN_BODY, name: "Expiring" };
    await api.call("POST", "/v1/plans", withKey(key, body));
    api.h.clock.advance({ hours: 23, minutes: 59 });
    expect((await api.call("POST", "/v1/plans", withKey(key, body))).headers["idempotent-replayed"]).toBe(
      "true",
    );
    api.h.clock.advance({ minutes: 1 });
    const fresh = await api.call("POST", "/v1/plans", withKey(key, { ...body, name: "Expiring again" }));
    expect(fresh.statusCode).toBe(201);
    expect(fresh.headers["idempotent-replayed"]).toBeUndefined();
    const [row] = await api.h.ctx.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.apiKeyId, api.keyId), eq(idempotencyKeys.key, key)));
    expect(row?.createdAt.toISOString()).toBe(api.h.clock.now().toUTC().toISO());
  });

  it("names an over-long key as the offending header", async () => {
    const response = await api.call("POST", "/v1/plans", withKey("k".repeat(256), PLAN_BODY));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      expect.objectContaining({ field: "idempotency-key", location: "header" }),
    ]);
  });

  it("names an empty key on a POST that takes one as the offending header", async () => {
    const response = await api.call("POST", "/v1/plans", withKey("", { ...PLAN_BODY, name: "Empty key" }));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: "idempotency-key", location: "header", message: "Idempotency-Key must not be empty" },
    ]);
    expect(await plansNamed("Empty key")).toBe(0);
  });

  it("ignores an empty key where idempotency does not apply: an unknown route, a GET", async () => {
    const unknown = await api.call("POST", "/v1/nope", withKey("", {}));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "route_not_found" });
    const listed = await api.call("GET", "/v1/plans", withKey(""));
    expect(listed.statusCode).toBe(200);
  });

  it("does not use up a key on a route that does not exist", async () => {
    const key = randomUUID();
    const unknown = await api.call("POST", "/v1/nope", withKey(key, { ...PLAN_BODY, name: "After 404" }));
    expect(unknown.statusCode).toBe(404);
    const stored = await api.h.ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(stored).toEqual([]);

    const created = await api.call("POST", "/v1/plans", withKey(key, { ...PLAN_BODY, name: "After 404" }));
    expect(created.statusCode).toBe(201);
    expect(created.headers["idempotent-replayed"]).toBeUndefined();
    expect(await plansNamed("After 404")).toBe(1);
  });

  it("does nothing for a POST without a key: each call runs", async () => {
    const body = { ...PLAN_BODY, name: "Keyless" };
    await api.call("POST", "/v1/plans", { body });
    await api.call("POST", "/v1/plans", { body });
    expect(await plansNamed("Keyless")).toBe(2);
  });
});
