import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyOperationError, createApiKey, revokeApiKey } from "../../../src/apikeys/index.js";
import { resumeCollection } from "../../../src/breaker/index.js";
import { BILLING_TICK, recordTickEnd, recordTickStart } from "../../../src/scheduler/index.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/**
 * Every merchant route refuses a request without a valid key, before validating anything. The
 * routes are read from the OpenAPI document, so a route added later is covered without editing.
 */

let api: ApiHarness;
let revokedKey: string;
let operations: { method: "GET" | "POST" | "DELETE"; url: string }[];

beforeAll(async () => {
  api = await createApiHarness();
  const revoked = await createApiKey(api.h.ctx.db, { name: "revoked" });
  await revokeApiKey(api.h.ctx.db, revoked.id);
  revokedKey = revoked.key;
  const doc = (await api.app.inject({ url: "/openapi.json" })).json<{ paths: Record<string, object> }>();
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => ({
      method: method.toUpperCase() as "GET" | "POST" | "DELETE",
      url: path.replace("{id}", randomUUID()),
    })),
  );
});
afterAll(() => api?.close());

describe("authentication", () => {
  it("covers the whole API", () => {
    expect(operations.length).toBeGreaterThanOrEqual(20);
  });

  const cases: [string, () => { key: string | null; headers?: Record<string, string> }][] = [
    ["no Authorization header", () => ({ key: null })],
    ["an unknown key", () => ({ key: `bk_${"A".repeat(40)}` })],
    ["a string that is no key at all", () => ({ key: "hunter2" })],
    ["a revoked key", () => ({ key: revokedKey })],
    ["another scheme", () => ({ key: null, headers: { authorization: `Basic ${api.key}` } })],
  ];

  for (const [name, presented] of cases) {
    it(`refuses ${name} on every route with a 401 problem`, async () => {
      for (const operation of operations) {
        const { key, headers } = presented();
        const response = await api.call(operation.method, operation.url, {
          key,
          ...(headers ? { headers } : {}),
          ...(operation.method === "POST" ? { body: { anything: true } } : {}),
        });
        expect(response.statusCode, `${operation.method} ${operation.url}`).toBe(401);
        expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
        expect(response.headers["www-authenticate"]).toBe('Bearer realm="billing-engine"');
        expect(response.json()).toMatchObject({
          status: 401,
          code: "unauthorized",
          title: expect.any(String),
        });
      }
    });
  }

  it("answers an unknown /v1 route with 401 without a key and 404 with one", async () => {
    expect((await api.call("GET", "/v1/nothing-here", { key: null })).statusCode).toBe(401);
    const response = await api.call("GET", "/v1/nothing-here");
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: "route_not_found" });
  });

  it("leaves /healthz, the gateway callbacks and the docs open", async () => {
    expect((await api.call("GET", "/healthz", { key: null })).statusCode).toBe(200);
    expect((await api.call("GET", "/openapi.json", { key: null })).statusCode).toBe(200);
    expect((await api.call("GET", "/docs", { key: null })).statusCode).toBe(200);
    const callback = await api.call("GET", "/gateway/webhook?orderId=unknown", { key: null });
    expect(callback.statusCode).not.toBe(401);
  });

  it("says on /readyz whether collection is paused by the gateway circuit breaker, and why", async () => {
    // A recent tick, so the answer does not depend on how long this test process has been up.
    await recordTickStart(api.h.ctx.db.$client, BILLING_TICK);
    await recordTickEnd(api.h.ctx.db.$client, BILLING_TICK, { outcome: "ok", durationMs: 1 });
    const ready = await api.call("GET", "/readyz", { key: null });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: "ready",
      checks: { database: { status: "ok" }, gateway_breaker: { status: "ok", reason: "closed" } },
    });

    await api.h.ctx.db.$client`
      insert into gateway_breaker (id, opened_at, reason, signal)
      values (1, now(), '12 different cards refused with -7', 'token_refused')`;
    const paused = await api.call("GET", "/readyz", { key: null });
    expect(paused.statusCode).toBe(503);
    expect(paused.json()).toMatchObject({
      status: "paused",
      checks: {
        database: { status: "ok" },
        gateway_breaker: {
          status: "failing",
          reason: expect.stringContaining("12 different cards refused with -7"),
        },
      },
    });
    expect((await api.call("GET", "/healthz", { key: null })).statusCode).toBe(200);

    await resumeCollection(api.h.ctx, { actor: "cli" });
    expect((await api.call("GET", "/readyz", { key: null })).statusCode).toBe(200);
  });

  it("lets a read-only key read and nothing else", async () => {
    const { key, scope } = await createApiKey(api.h.ctx.db, { name: "reports", readOnly: true });
    expect(scope).toBe("read_only");
    expect((await api.call("GET", "/v1/plans", { key })).statusCode).toBe(200);
    const write = await api.call("POST", "/v1/customers", {
      key,
      body: { email: "r@example.com", name: "R" },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: "forbidden", detail: expect.stringContaining("read-only") });
    const [customers] = await api.h.ctx.db
      .$client`select count(*)::int as n from customers where email = 'r@example.com'`;
    expect(customers).toEqual({ n: 0 });
  });

  it("lets a restricted key read and do only the writes it names", async () => {
    const { key, scope, allowedOperations } = await createApiKey(api.h.ctx.db, {
      name: "refunds-bot",
      operations: ["post /v1/charges/{id}/refund/", "POST /v1/dunning/run"],
    });
    expect(scope).toBe("restricted");
    expect(allowedOperations).toEqual(["POST /v1/charges/:id/refund", "POST /v1/dunning/run"]);
    expect((await api.call("GET", "/v1/charges", { key })).statusCode).toBe(200);
    // Allowed: the route is reached (the charge does not exist, so 404, not 403).
    expect((await api.call("POST", `/v1/charges/${randomUUID()}/refund`, { key })).statusCode).toBe(404);
    const refused = await api.call("POST", "/v1/customers", { key, body: { email: "x@example.com" } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toContain("POST /v1/customers");
    await expect(
      createApiKey(api.h.ctx.db, { name: "bad", operations: ["refund everything"] }),
    ).rejects.toThrow(ApiKeyOperationError);
  });

  it("stops a key the moment it is revoked", async () => {
    const { id, key } = await createApiKey(api.h.ctx.db, { name: "short-lived" });
    expect((await api.call("GET", "/v1/plans", { key })).statusCode).toBe(200);
    expect(await revokeApiKey(api.h.ctx.db, id)).toBe(true);
    expect((await api.call("GET", "/v1/plans", { key })).statusCode).toBe(401);
    expect(await revokeApiKey(api.h.ctx.db, id)).toBe(false);
  });
});
