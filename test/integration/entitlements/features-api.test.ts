import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHarness, createApiHarness, PLAN_BODY } from "../api/support.js";
import { put } from "./support.js";

/**
 * Features through the merchant API: creating, listing and archiving them, and including them in
 * plans, with the refusals that name what to fix (a limit on a switch, none on a limit feature).
 */

let api: ApiHarness;
let planId: string;

beforeAll(async () => {
  api = await createApiHarness();
  const plan = await api.call("POST", "/v1/plans", { body: PLAN_BODY });
  expect(plan.statusCode).toBe(201);
  planId = plan.json().id;
});
afterAll(() => api?.close());

interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; location: string; message: string }[];
}
const problem = (response: { json: () => unknown }) => response.json() as Problem;
const fields = (response: { json: () => unknown }) => problem(response).errors?.map((e) => e.field) ?? [];

async function feature(code: string, kind: "boolean" | "limit", name = code) {
  const response = await api.call("POST", "/v1/features", { body: { code, name, kind } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe("features", () => {
  it("are created, listed, read by code and archived", async () => {
    const created = await feature("api.calls", "limit", "API calls per day");
    expect(created).toMatchObject({
      code: "api.calls",
      name: "API calls per day",
      kind: "limit",
      archived_at: null,
    });

    const listed = await api.call("GET", "/v1/features");
    expect(listed.json().data.map((f: { code: string }) => f.code)).toContain("api.calls");
    expect((await api.call("GET", "/v1/features/api.calls")).json()).toEqual(created);

    const archived = await api.call("POST", "/v1/features/api.calls/archive");
    expect(archived.statusCode).toBe(200);
    expect(archived.json().archived_at).toBe("2026-01-15T09:00:00.000Z");
    const again = await api.call("POST", "/v1/features/api.calls/archive");
    expect(again.json().archived_at).toBe("2026-01-15T09:00:00.000Z");

    const active = (await api.call("GET", "/v1/features")).json().data.map((f: { code: string }) => f.code);
    expect(active).not.toContain("api.calls");
    const all = await api.call("GET", "/v1/features?include_archived=true");
    expect(all.json().data.map((f: { code: string }) => f.code)).toContain("api.calls");
  });

  it("refuse a taken code with 409 naming code, and bad fields with one 400 naming each", async () => {
    await feature("exports", "boolean");
    const taken = await api.call("POST", "/v1/features", {
      body: { code: "exports", name: "Again", kind: "boolean" },
    });
    expect(taken.statusCode).toBe(409);
    expect(problem(taken)).toMatchObject({ code: "feature_exists", feature: "exports" });
    expect(fields(taken)).toEqual(["code"]);

    const bad = await api.call("POST", "/v1/features", {
      body: { code: "Big Reports", name: " ", kind: "switch" },
    });
    expect(bad.statusCode).toBe(400);
    expect(fields(bad).sort()).toEqual(["code", "kind", "name"]);
    expect(problem(bad).detail).toContain("code must be 1-64 of a-z");
  });

  it("answer 404 for an unknown code", async () => {
    expect((await api.call("GET", "/v1/features/nope")).statusCode).toBe(404);
    expect((await api.call("POST", "/v1/features/nope/archive")).statusCode).toBe(404);
  });
});

describe("a plan's features", () => {
  it("take a limit (or null: unlimited) for a limit feature and none for a switch, and are listed by code", async () => {
    await feature("projects", "limit");
    await feature("sso", "boolean");

    const limited = await put(api, `/v1/plans/${planId}/features/projects`, { limit: 10 });
    expect(limited.statusCode, limited.body).toBe(200);
    expect(limited.json()).toMatchObject({ plan_id: planId, feature: "projects", kind: "limit", limit: 10 });
    const unlimited = await put(api, `/v1/plans/${planId}/features/projects`, { limit: null });
    expect(unlimited.json()).toMatchObject({ feature: "projects", limit: null });
    const zero = await put(api, `/v1/plans/${planId}/features/projects`, { limit: 0 });
    expect(zero.json()).toMatchObject({ feature: "projects", limit: 0 });

    expect((await put(api, `/v1/plans/${planId}/features/sso`, {})).statusCode).toBe(200);
    expect((await put(api, `/v1/plans/${planId}/features/sso`)).statusCode).toBe(200);

    const listed = await api.call("GET", `/v1/plans/${planId}/features`);
    expect(listed.json().data).toEqual([
      expect.objectContaining({ feature: "projects", kind: "limit", limit: 0, feature_archived: false }),
      expect.objectContaining({ feature: "sso", kind: "boolean", limit: null, feature_archived: false }),
    ]);
  });

  it("refuse a limit on a switch and a limit feature without one, naming limit", async () => {
    await feature("webhooks", "boolean");
    await feature("seats", "limit");

    const onSwitch = await put(api, `/v1/plans/${planId}/features/webhooks`, { limit: 5 });
    expect(onSwitch.statusCode).toBe(422);
    expect(problem(onSwitch)).toMatchObject({
      code: "limit_not_allowed",
      feature: "webhooks",
      kind: "boolean",
    });
    expect(problem(onSwitch).detail).toContain("is a switch (kind boolean): it takes no limit");
    expect(problem(onSwitch).errors).toEqual([
      { field: "limit", location: "body", message: problem(onSwitch).detail },
    ]);

    const nullOnSwitch = await put(api, `/v1/plans/${planId}/features/webhooks`, { limit: null });
    expect(problem(nullOnSwitch).code).toBe("limit_not_allowed");

    const missing = await put(api, `/v1/plans/${planId}/features/seats`, {});
    expect(missing.statusCode).toBe(422);
    expect(problem(missing)).toMatchObject({ code: "limit_required", feature: "seats" });
    expect(fields(missing)).toEqual(["limit"]);

    for (const limit of [-1, 2.5, "10", Number.MAX_SAFE_INTEGER + 2]) {
      const bad = await put(api, `/v1/plans/${planId}/features/seats`, { limit });
      expect(bad.statusCode, JSON.stringify(limit)).toBe(400);
      expect(fields(bad)).toEqual(["limit"]);
    }
    const unknownField = await put(api, `/v1/plans/${planId}/features/seats`, { limit: 1, max: 2 });
    expect(fields(unknownField)).toEqual(["max"]);

    const listed = await api.call("GET", `/v1/plans/${planId}/features`);
    expect(listed.json().data.map((f: { feature: string }) => f.feature)).not.toContain("webhooks");
  });

  it("refuse unknown plans and features with 404, and an archived feature with 422", async () => {
    await feature("legacy", "boolean");
    await api.call("POST", "/v1/features/legacy/archive");

    const noPlan = await put(api, "/v1/plans/00000000-0000-4000-8000-000000000000/features/sso", {});
    expect(noPlan.statusCode).toBe(404);
    expect(problem(noPlan).detail).toContain("no plan with id");
    const noFeature = await put(api, `/v1/plans/${planId}/features/nope`, {});
    expect(noFeature.statusCode).toBe(404);
    expect(problem(noFeature).detail).toBe("no feature with code nope");
    const archived = await put(api, `/v1/plans/${planId}/features/legacy`, {});
    expect(archived.statusCode).toBe(422);
    expect(problem(archived).code).toBe("feature_archived");
    expect(
      (await api.call("GET", "/v1/plans/00000000-0000-4000-8000-000000000000/features")).statusCode,
    ).toBe(404);
  });

  it("are taken off, and taking off one the plan does not include is a 404", async () => {
    await feature("badges", "boolean");
    await put(api, `/v1/plans/${planId}/features/badges`, {});

    const removed = await api.call("DELETE", `/v1/plans/${planId}/features/badges`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ plan_id: planId, feature: "badges", removed: true });
    const again = await api.call("DELETE", `/v1/plans/${planId}/features/badges`);
    expect(again.statusCode).toBe(404);
    expect(problem(again).detail).toBe(`plan ${planId} does not include feature badges`);
  });

  it("keep an archived feature attached, marked, but granted by nobody", async () => {
    await feature("beta", "boolean");
    await put(api, `/v1/plans/${planId}/features/beta`, {});
    await api.call("POST", "/v1/features/beta/archive");

    const listed = await api.call("GET", `/v1/plans/${planId}/features`);
    expect(listed.json().data).toContainEqual(
      expect.objectContaining({ feature: "beta", feature_archived: true }),
    );
  });

  it("are in the OpenAPI document", async () => {
    const document = (await api.app.inject({ url: "/openapi.json" })).json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/v1/features",
        "/v1/features/{code}",
        "/v1/features/{code}/archive",
        "/v1/plans/{id}/features",
        "/v1/plans/{id}/features/{code}",
        "/v1/customers/{id}/entitlements",
      ]),
    );
    expect(Object.keys(document.paths["/v1/plans/{id}/features/{code}"])).toEqual(
      expect.arrayContaining(["put", "delete"]),
    );
  });
});
