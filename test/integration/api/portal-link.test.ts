import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { portalLinks } from "../../../src/db/schema/index.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/** POST /v1/customers/:id/portal-link: a single-use portal link, 404 problem for an unknown customer. */
let api: ApiHarness;
let customerId: string;

beforeAll(async () => {
  api = await createApiHarness();
  customerId = (await api.call("POST", "/v1/customers", { body: { email: "portal@example.qa" } })).json().id;
});
afterAll(() => api?.close());

it("answers 201 with the link and its expiry, and keeps only the secret's hash", async () => {
  const response = await api.call("POST", `/v1/customers/${customerId}/portal-link`);
  expect(response.statusCode).toBe(201);
  const body = response.json();
  expect(Object.keys(body).sort()).toEqual(["expires_at", "url"]);
  expect(body.url).toMatch(/^http:\/\/127\.0\.0\.1:9\/portal\/open\?token=[A-Za-z0-9_-]{43}$/);
  expect(body.expires_at).toBe(api.h.clock.now().plus({ minutes: 60 }).toUTC().toISO());
  const secret = new URL(body.url).searchParams.get("token") ?? "";
  const [row] = await api.h.ctx.db
    .select()
    .from(portalLinks)
    .where(eq(portalLinks.tokenHash, createHash("sha256").update(secret).digest("hex")));
  expect(row).toMatchObject({ customerId, createdBy: `api:${api.keyId}`, usedAt: null });
});

it("replays the same link for the same Idempotency-Key, and makes a new one without", async () => {
  const headers = { "idempotency-key": "portal-link-1" };
  const first = await api.call("POST", `/v1/customers/${customerId}/portal-link`, { headers });
  const replay = await api.call("POST", `/v1/customers/${customerId}/portal-link`, { headers });
  expect(replay.statusCode).toBe(201);
  expect(replay.json()).toEqual(first.json());
  const fresh = await api.call("POST", `/v1/customers/${customerId}/portal-link`);
  expect(fresh.json().url).not.toBe(first.json().url);
});

it("answers 404 problem+json for an unknown customer or a malformed id", async () => {
  const unknown = await api.call("POST", "/v1/customers/00000000-0000-4000-8000-000000000000/portal-link");
  expect(unknown.statusCode).toBe(404);
  expect(unknown.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(unknown.json()).toMatchObject({ code: "not_found" });
  const malformed = await api.call("POST", "/v1/customers/nope/portal-link");
  expect([malformed.statusCode, malformed.json().code]).toEqual([404, "not_found"]);
});
