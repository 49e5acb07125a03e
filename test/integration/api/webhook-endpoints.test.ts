import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHarness, createApiHarness } from "./support.js";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

describe("webhook endpoints", () => {
  it("adds an endpoint, showing its signing secret once", async () => {
    const created = await api.call("POST", "/v1/webhook-endpoints", {
      body: { url: "https://merchant.example/hooks" },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toEqual({
      id: expect.any(String),
      url: "https://merchant.example/hooks",
      enabled: true,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    const listed = (await api.call("GET", "/v1/webhook-endpoints")).json();
    const { secret: _secret, ...withoutSecret } = body;
    expect(listed.data).toContainEqual(withoutSecret);
    expect(JSON.stringify(listed)).not.toContain(body.secret);
  });

  it("disables an endpoint, and 404s an unknown one", async () => {
    const { id } = (
      await api.call("POST", "/v1/webhook-endpoints", { body: { url: "http://merchant.example/old" } })
    ).json();
    const disabled = await api.call("DELETE", `/v1/webhook-endpoints/${id}`);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toEqual({ id, enabled: false });
    const listed = (await api.call("GET", "/v1/webhook-endpoints")).json();
    expect(listed.data.find((e: { id: string }) => e.id === id)?.enabled).toBe(false);
    expect((await api.call("DELETE", `/v1/webhook-endpoints/${randomUUID()}`)).statusCode).toBe(404);
  });

  it("names a URL that is not http(s)", async () => {
    const response = await api.call("POST", "/v1/webhook-endpoints", {
      body: { url: "ftp://merchant.example" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: "url", location: "body", message: "url must be an http(s) URL" },
    ]);
  });
});
