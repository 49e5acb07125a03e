import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHarness, createApiHarness, PLAN_BODY } from "./support.js";

/**
 * Input the API used to take silently, now refused with a 400 naming what is wrong:
 * - a query parameter no route documents (`GET /v1/charges?customer_id=…` listed every charge, so a
 *   script refunding "this customer's charges" acted on all of them);
 * - a JSON body that is not valid UTF-8 (stored as replacement characters);
 * - a `__proto__` or `constructor.prototype` key (refused as "not valid JSON", naming nothing).
 */

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

/** A request whose body is sent byte for byte, as a JSON client with a bug would send it. */
function rawJson(url: string, payload: Buffer | string) {
  return api.app.inject({
    method: "POST",
    url,
    headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
    payload,
  });
}

const customerEmails = async () =>
  (await api.call("GET", "/v1/customers?limit=100")).json().data.map((c: { email: string }) => c.email);

describe("unknown query parameters", () => {
  it("refuses a filter the list does not have, naming it, and keeps the documented ones", async () => {
    const response = await api.call("GET", `/v1/charges?customer_id=${randomUUID()}`);
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({
      code: "validation_failed",
      errors: [{ field: "customer_id", location: "query", message: "unknown parameter" }],
    });

    expect((await api.call("GET", "/v1/charges?limit=1&status=paid")).statusCode).toBe(200);
    const events = await api.call("GET", `/v1/subscriptions/${randomUUID()}/events?limit=2&starting_after=0`);
    expect(events.statusCode).toBe(404);
    const doc = (await api.app.inject({ url: "/openapi.json" })).json();
    const names = (path: string) =>
      doc.paths[path].get.parameters
        .filter((p: { in: string }) => p.in === "query")
        .map((p: { name: string }) => p.name)
        .sort();
    expect(names("/v1/charges")).toEqual(["limit", "starting_after", "status", "subscription_id"]);
    expect(names("/v1/charges/{id}/receipt.pdf")).toEqual(["lang"]);
  });

  it("names every unknown parameter, beside the documented ones", async () => {
    const response = await api.call("GET", "/v1/charges?limit=5&customer=x&status=paid&sort=desc");
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: "customer", location: "query", message: "unknown parameter" },
      { field: "sort", location: "query", message: "unknown parameter" },
    ]);
  });

  it("refuses them on routes that take no query at all, POSTs included", async () => {
    const plan = await api.call("POST", "/v1/plans", { body: PLAN_BODY });
    const get = await api.call("GET", `/v1/plans/${plan.json().id}?expand=prices`);
    expect(get.statusCode).toBe(400);
    expect(get.json().errors).toEqual([{ field: "expand", location: "query", message: "unknown parameter" }]);

    const post = await api.call("POST", "/v1/dunning/run?dry_run=true", { body: {} });
    expect(post.statusCode).toBe(400);
    expect(post.json().errors).toEqual([
      { field: "dry_run", location: "query", message: "unknown parameter" },
    ]);
  });
});

describe("JSON bodies", () => {
  it("refuses a body that is not valid UTF-8 instead of storing replacement characters", async () => {
    const payload = Buffer.concat([
      Buffer.from('{"email":"latin1@example.qa","name":"Jos'),
      Buffer.from([0xe9]), // "é" in Latin-1: not UTF-8
      Buffer.from('"}'),
    ]);
    const response = await rawJson("/v1/customers", payload);
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({
      code: "invalid_utf8",
      errors: [{ field: "body", location: "body", message: "the body is not valid UTF-8" }],
    });
    expect(await customerEmails()).not.toContain("latin1@example.qa");

    // Valid UTF-8, from any script, is kept as sent.
    const valid = await rawJson(
      "/v1/customers",
      Buffer.from('{"email":"utf8@example.qa","name":"José محمد 🥇"}', "utf8"),
    );
    expect(valid.statusCode).toBe(201);
    expect(valid.json().name).toBe("José محمد 🥇");
  });

  it("names a __proto__ key, at any depth, as refused", async () => {
    const top = await rawJson("/v1/customers", '{"email":"proto@example.qa","__proto__":{"admin":true}}');
    expect(top.statusCode).toBe(400);
    expect(top.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(top.json()).toMatchObject({
      code: "validation_failed",
      errors: [{ field: "__proto__", location: "body", message: "the key __proto__ is not accepted" }],
    });

    const deep = await rawJson(
      "/v1/customers",
      '{"email":"proto@example.qa","name":{"__proto__":{}},"tags":[1,{"__proto__":null}]}',
    );
    expect(deep.statusCode).toBe(400);
    expect(deep.json().errors).toEqual([
      { field: "name.__proto__", location: "body", message: "the key __proto__ is not accepted" },
      { field: "tags.1.__proto__", location: "body", message: "the key __proto__ is not accepted" },
    ]);
    expect(await customerEmails()).not.toContain("proto@example.qa");

    // Spelt with an escape, it is the same key.
    const escaped = await rawJson("/v1/customers", '{"email":"proto@example.qa","\\u005f_proto__":{}}');
    expect(escaped.statusCode).toBe(400);
    expect(escaped.json().errors).toEqual([
      { field: "__proto__", location: "body", message: "the key __proto__ is not accepted" },
    ]);

    // Malformed JSON is answered as before; an empty body is no body, which this route requires.
    const malformed = await rawJson("/v1/customers", '{"email":');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: "bad_request" });
    const empty = await rawJson("/v1/customers", "");
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      code: "validation_failed",
      errors: [{ field: "body", location: "body", message: "a JSON body is required" }],
    });
  });

  it("names a constructor.prototype key as refused, and lets a plain constructor key reach validation", async () => {
    const response = await rawJson(
      "/v1/customers",
      '{"email":"ctor@example.qa","constructor":{"prototype":{"admin":true}}}',
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: "validation_failed",
      errors: [
        {
          field: "constructor.prototype",
          location: "body",
          message: "the key constructor.prototype is not accepted",
        },
      ],
    });

    // Not an attack, just an unknown field: the route's own validation names it.
    const plain = await rawJson("/v1/customers", '{"email":"ctor@example.qa","constructor":1}');
    expect(plain.statusCode).toBe(400);
    expect(plain.json().errors).toEqual([
      { field: "constructor", location: "body", message: "unknown field" },
    ]);
  });
});
