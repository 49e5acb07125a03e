import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHarness, createApiHarness } from "../api/support.js";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

describe("meters API", () => {
  it("creates a meter and lists it; a code taken is 409, archived or not", async () => {
    const created = await api.call("POST", "/v1/meters", {
      body: { code: "storage.bytes", name: " Storage ", aggregation: "max" },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(String),
      code: "storage.bytes",
      name: "Storage",
      aggregation: "max",
      created_at: expect.stringMatching(/Z$/),
      archived_at: null,
    });
    const again = await api.call("POST", "/v1/meters", {
      body: { code: "storage.bytes", name: "Other", aggregation: "sum" },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: "meter_exists",
      errors: [
        { field: "code", location: "body", message: "a meter with code storage.bytes already exists" },
      ],
    });
    const list = await api.call("GET", "/v1/meters");
    expect(list.json()).toEqual({ data: [created.json()], has_more: false });
  });

  it("names each bad field", async () => {
    const response = await api.call("POST", "/v1/meters", {
      body: { code: "API Calls", name: "", aggregation: "avg" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { field: string }) => e.field)).toEqual([
      "code",
      "name",
      "aggregation",
    ]);
  });

  it("archives by code or id, leaves archived meters out of the list unless asked", async () => {
    const created = await api.call("POST", "/v1/meters", {
      body: { code: "seats", name: "Seats", aggregation: "last" },
    });
    const archived = await api.call("POST", "/v1/meters/seats/archive");
    expect(archived.statusCode).toBe(200);
    expect(archived.json().archived_at).toEqual(expect.any(String));
    const twice = await api.call("POST", `/v1/meters/${created.json().id}/archive`);
    expect(twice.json().archived_at).toBe(archived.json().archived_at);
    const codes = async (query: string) =>
      (await api.call("GET", `/v1/meters${query}`)).json().data.map((m: { code: string }) => m.code);
    expect(await codes("")).toEqual(["storage.bytes"]);
    expect(await codes("?include_archived=true")).toEqual(["storage.bytes", "seats"]);
    expect((await api.call("POST", "/v1/meters/nothing/archive")).statusCode).toBe(404);
  });
});
