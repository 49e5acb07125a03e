import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHarness, createApiHarness } from "./support.js";

interface Operation {
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { required: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  security: unknown[];
}

let api: ApiHarness;
let doc: OpenApiDocument;
beforeAll(async () => {
  api = await createApiHarness();
  const response = await api.app.inject({ url: "/openapi.json" });
  expect(response.statusCode).toBe(200);
  doc = response.json();
});
afterAll(() => api?.close());

describe("OpenAPI document", () => {
  it("lists every merchant route and nothing else", () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [
        "POST /v1/plans",
        "GET /v1/plans",
        "GET /v1/plans/{id}",
        "PATCH /v1/plans/{id}",
        "POST /v1/plans/{id}/archive",
        "POST /v1/plans/{id}/unarchive",
        "POST /v1/customers",
        "GET /v1/customers",
        "GET /v1/customers/{id}",
        "PATCH /v1/customers/{id}",
        "POST /v1/customers/{id}/portal-link",
        "GET /v1/customers/{id}/messages",
        "GET /v1/messages/{id}",
        "POST /v1/messages/{id}/resend",
        "POST /v1/subscriptions",
        "GET /v1/subscriptions",
        "GET /v1/subscriptions/{id}",
        "GET /v1/subscriptions/{id}/events",
        "POST /v1/subscriptions/{id}/cancel",
        "POST /v1/subscriptions/{id}/pause",
        "POST /v1/subscriptions/{id}/resume",
        "POST /v1/subscriptions/{id}/new-card-link",
        "POST /v1/subscriptions/{id}/collection-method",
        "POST /v1/subscriptions/{id}/credit",
        "POST /v1/subscriptions/{id}/change-plan",
        "POST /v1/subscriptions/{id}/change-plan/cancel",
        "GET /v1/charges",
        "GET /v1/charges/{id}",
        "POST /v1/charges/{id}/reconcile",
        "POST /v1/charges/{id}/refund",
        "POST /v1/charges/{id}/retry",
        "GET /v1/charges/{id}/receipt",
        "GET /v1/charges/{id}/receipt.pdf",
        "POST /v1/dunning/run",
        "GET /v1/invoices",
        "GET /v1/invoices/{id}",
        "GET /v1/refunds",
        "GET /v1/refunds/{id}",
        "GET /v1/refunds/{id}/credit-note",
        "GET /v1/refunds/{id}/credit-note.pdf",
        "POST /v1/webhook-endpoints",
        "GET /v1/webhook-endpoints",
        "DELETE /v1/webhook-endpoints/{id}",
        "POST /v1/coupons",
        "GET /v1/coupons",
        "GET /v1/coupons/{id}",
        "POST /v1/coupons/{id}/archive",
        "POST /v1/subscriptions/{id}/discount",
        "DELETE /v1/subscriptions/{id}/discount",
        "GET /v1/subscriptions/{id}/upcoming",
        "POST /v1/subscriptions/{id}/one-off-charges",
        "GET /v1/subscriptions/{id}/one-off-charges",
        "POST /v1/subscriptions/{id}/one-off-charges/{one_off_id}/cancel",
        "POST /v1/addons",
        "GET /v1/addons",
        "GET /v1/addons/{code}",
        "POST /v1/addons/{code}/archive",
        "PUT /v1/subscriptions/{id}/addons/{code}",
        "DELETE /v1/subscriptions/{id}/addons/{code}",
        "GET /v1/subscriptions/{id}/addons",
        "POST /v1/meters",
        "GET /v1/meters",
        "POST /v1/meters/{id}/archive",
        "POST /v1/usage",
        "GET /v1/subscriptions/{id}/usage",
        "PUT /v1/plans/{id}/usage-prices/{meter}",
        "DELETE /v1/plans/{id}/usage-prices/{meter}",
        "PUT /v1/plans/{id}/usage-threshold",
        "GET /v1/plans/{id}/usage-prices",
        "POST /v1/features",
        "GET /v1/features",
        "GET /v1/features/{code}",
        "POST /v1/features/{code}/archive",
        "PUT /v1/plans/{id}/features/{code}",
        "DELETE /v1/plans/{id}/features/{code}",
        "GET /v1/plans/{id}/features",
        "GET /v1/customers/{id}/entitlements",
      ].sort(),
    );
  });

  it("is OpenAPI 3.1 with bearer authentication for every operation", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes).toEqual({
      apiKey: expect.objectContaining({ type: "http", scheme: "bearer" }),
    });
    expect(doc.security).toEqual([{ apiKey: [] }]);
  });

  it("documents the Idempotency-Key header on every POST", () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!item.post) continue;
      const names = (item.post.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
      expect(names, path).toContain("idempotency-key");
    }
  });

  it("makes the body optional where an action takes none, and required where it is needed", () => {
    expect(doc.paths["/v1/subscriptions/{id}/pause"]?.post?.requestBody?.required).toBe(false);
    expect(doc.paths["/v1/subscriptions/{id}/cancel"]?.post?.requestBody?.required).toBe(false);
    expect(doc.paths["/v1/subscriptions"]?.post?.requestBody?.required).toBe(true);
  });

  it("describes bodies, queries and replies from the zod schemas, with shared components", () => {
    const createPlan = doc.paths["/v1/plans"]?.post;
    expect(JSON.stringify(createPlan?.requestBody)).toContain("interval_count");
    expect(createPlan?.responses["201"]).toBeDefined();
    const listCharges = doc.paths["/v1/charges"]?.get;
    expect(listCharges?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(["subscription_id", "status", "limit", "starting_after"]),
    );
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["Problem", "Money", "Plan", "Customer", "Subscription", "Charge", "Refund"]),
    );
    const notFound = doc.paths["/v1/charges/{id}"]?.get?.responses["404"];
    expect(Object.keys(notFound?.content ?? {})).toEqual(["application/problem+json"]);
  });

  it("documents what a plan may change, and each field it may not as refused with why", () => {
    const body = doc.paths["/v1/plans/{id}"]?.patch?.requestBody?.content["application/json"]?.schema as {
      properties: Record<string, { not?: unknown; description?: string }>;
      additionalProperties: boolean;
    };
    const { properties } = body;
    expect(Object.keys(properties).filter((field) => properties[field]?.not === undefined)).toEqual([
      "name",
      "trial_days",
      "product_id",
      "collection_method",
      "trial_without_card",
    ]);
    expect(body.additionalProperties).toBe(false);
    expect(properties.amount).toEqual({
      not: {},
      description: expect.stringMatching(
        /^Refused: amount cannot change: a plan's price and interval are fixed/,
      ),
    });
  });
});

describe("docs page", () => {
  it("serves Swagger UI from local assets, with nothing loaded from another host", async () => {
    const page = await api.app.inject({ url: "/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.filter((url) => /^(https?:)?\/\//.test(url))).toEqual([]);
    for (const asset of assets) {
      const response = await api.app.inject({ url: new URL(asset, "http://local/docs/").pathname });
      expect(response.statusCode, asset).toBe(200);
    }
    const initializer = await api.app.inject({ url: "/docs/static/swagger-initializer.js" });
    expect(initializer.body).toContain("validatorUrl: null");
  });
});
