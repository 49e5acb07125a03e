import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHarness, createApiHarness, PLAN_BODY } from "./support.js";

/**
 * Every route refuses invalid input as a problem naming the offending field, before doing
 * anything. The routes come from the OpenAPI document, so a new route is covered too:
 * - a POST or PATCH with an unknown field in its body: 400 naming that field;
 * - a GET with a query parameter it does not document: 400 naming that parameter;
 * - a list with a page size out of range: 400 naming `limit`;
 * - an id in the path that cannot be an id: 404, like any id that names nothing.
 */

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

interface Operation {
  method: Method;
  path: string;
  query: string[];
}

let api: ApiHarness;
let operations: Operation[];
beforeAll(async () => {
  api = await createApiHarness();
  const doc = (await api.app.inject({ url: "/openapi.json" })).json<{
    paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
  }>();
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase() as Method,
      path,
      query: (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name),
    })),
  );
});
afterAll(() => api?.close());

/** The path with `id` for {id}, and a fresh id for any other id parameter ({one_off_id}). */
const withId = (path: string, id: string) =>
  path.replace("{id}", id).replace(/\{[a-z_]+_id\}/g, () => randomUUID());

describe("validation on every route", () => {
  it("names an unknown body field of every POST and PATCH", async () => {
    const writes = operations.filter((o) => o.method === "POST" || o.method === "PATCH");
    expect(writes.filter((o) => o.method === "POST").length).toBe(32);
    expect(writes.filter((o) => o.method === "PATCH").length).toBe(2);
    for (const operation of writes) {
      const response = await api.call(operation.method, withId(operation.path, randomUUID()), {
        body: { bogus: true },
      });
      const label = `${operation.method} ${operation.path}`;
      expect(response.statusCode, label).toBe(400);
      expect(response.headers["content-type"], label).toMatch(/^application\/problem\+json/);
      expect(response.json().errors, label).toContainEqual({
        field: "bogus",
        location: "body",
        message: "unknown field",
      });
    }
  });

  it("names an unknown query parameter of every GET", async () => {
    const gets = operations.filter((o) => o.method === "GET");
    expect(gets.length).toBe(34);
    for (const operation of gets) {
      const response = await api.call("GET", `${withId(operation.path, randomUUID())}?bogus=1`);
      const label = `GET ${operation.path}`;
      expect(response.statusCode, label).toBe(400);
      expect(response.headers["content-type"], label).toMatch(/^application\/problem\+json/);
      expect(response.json().errors, label).toEqual([
        { field: "bogus", location: "query", message: "unknown parameter" },
      ]);
    }
  });

  it("names an out-of-range limit of every list", async () => {
    const lists = operations.filter((o) => o.query.includes("limit"));
    expect(lists.length).toBe(12);
    for (const operation of lists) {
      const response = await api.call("GET", `${withId(operation.path, randomUUID())}?limit=0`);
      expect(response.statusCode, operation.path).toBe(400);
      expect(response.json().errors, operation.path).toEqual([
        { field: "limit", location: "query", message: "limit must be a whole number from 1 to 100" },
      ]);
    }
  });

  it("answers 404 for a malformed id on every route that takes one", async () => {
    const withIds = operations.filter((o) => o.path.includes("{id}"));
    for (const operation of withIds) {
      const response = await api.call(operation.method, withId(operation.path, "not-an-id"), {
        ...(operation.method === "POST" || operation.method === "PATCH" ? { body: {} } : {}),
      });
      expect(response.statusCode, `${operation.method} ${operation.path}`).toBe(404);
      expect(response.json().code).toBe("not_found");
    }
  });
});

describe("text PostgreSQL cannot store", () => {
  const unstorable = "must not contain NUL characters or unpaired UTF-16 surrogates";
  const cases = [
    { route: "/v1/plans", field: "name", body: { ...PLAN_BODY, name: "Gold\u0000monthly" } },
    { route: "/v1/plans", field: "name", body: { ...PLAN_BODY, name: "Gold \ud800 monthly" } },
    { route: "/v1/plans", field: "product_id", body: { ...PLAN_BODY, product_id: "\udc00prod" } },
    { route: "/v1/customers", field: "name", body: { email: "nul@example.qa", name: "a\u0000b" } },
    { route: "/v1/webhook-endpoints", field: "url", body: { url: "https://merchant.example/a\u0000b" } },
    {
      route: "/v1/coupons",
      field: "name",
      body: { code: "NUL", percent_off: 5, duration: "once", name: "a\u0000b" },
    },
  ];

  it.each(cases)("refuses it in $route $field as a 400 naming the field", async ({ route, field, body }) => {
    const response = await api.call("POST", route, { body });
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(response.json().errors).toEqual([{ field, location: "body", message: `${field} ${unstorable}` }]);
  });

  it("keeps text with paired surrogates (emoji) as sent", async () => {
    const response = await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, name: "Gold \u{1F947}" } });
    expect(response.statusCode).toBe(201);
    expect(response.json().name).toBe("Gold \u{1F947}");
  });
});
