import { afterAll, beforeAll, expect, it } from "vitest";
import { type ApiHarness, createApiHarness } from "../api/support.js";

/** The server's front door: GET / lists what it offers; an unknown path is a problem+json 404. */
let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

it("answers GET / with where the API, its reference, the dashboard, health and metrics are", async () => {
  const reply = await api.app.inject({ url: "/" });
  expect(reply.statusCode).toBe(200);
  expect(reply.json()).toEqual({
    name: "billing-engine",
    api: "/v1",
    docs: "/docs",
    openapi: "/openapi.json",
    ops_dashboard: "/ops",
    health: { live: "/healthz", ready: "/readyz" },
    metrics: "/metrics",
  });
});

it("answers an unknown path with a problem+json 404 pointing at the reference", async () => {
  const reply = await api.app.inject({ method: "POST", url: "/nowhere?x=1" });
  expect(reply.statusCode).toBe(404);
  expect(reply.headers["content-type"]).toContain("application/problem+json");
  expect(reply.json()).toMatchObject({
    status: 404,
    code: "route_not_found",
    detail: "nothing answers POST /nowhere; the API is described at /docs",
  });
});
