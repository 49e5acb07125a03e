import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSealedText } from "../../../src/crypto/index.js";
import { webhookEndpoints } from "../../../src/db/schema/index.js";
import { type ApiHarness, createApiHarness } from "./support.js";

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

describe("webhook endpoints", () => {
  it("adds an endpoint, showing its signing secret once", async () => {
    const created = await api.call("POST", "/v1/webhook-endpoints", {
      body: { url: "https://203.0.113.10/hooks" },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toEqual({
      id: expect.any(String),
      url: "https://203.0.113.10/hooks",
      enabled: true,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    const listed = (await api.call("GET", "/v1/webhook-endpoints")).json();
    const { secret: _secret, ...withoutSecret } = body;
    expect(listed.data).toContainEqual(withoutSecret);
    expect(JSON.stringify(listed)).not.toContain(body.secret);
    // Stored sealed: the database never holds the secret in clear.
    const [row] = await api.h.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, body.id));
    expect(row?.secret).toMatch(/^v1:k1:/);
    expect(row?.secret).not.toContain(body.secret);
    expect(openSealedText(api.h.ctx.vault, row!.secret)).toBe(body.secret);
  });

  it("disables an endpoint, and 404s an unknown one", async () => {
    const { id } = (
      await api.call("POST", "/v1/webhook-endpoints", { body: { url: "http://203.0.113.11/old" } })
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

  it.each([
    ["http://127.0.0.1:8080/hooks", "127.0.0.1 is a loopback address"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"],
    ["http://[::1]/", "::1 is a loopback address"],
    ["http://10.0.0.1/", "10.0.0.1 is a private address"],
    ["http://172.16.5.4/", "172.16.5.4 is a private address"],
    ["http://192.168.0.1/", "192.168.0.1 is a private address"],
    ["http://100.64.0.1/", "100.64.0.1 is a carrier-grade NAT address"],
    ["http://0.0.0.0/", "0.0.0.0 is an unspecified address"],
    ["http://[fc00::1]/", "fc00::1 is a private address"],
    ["http://[fe80::1]/", "fe80::1 is a link-local address"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1 is a loopback address"],
    ["http://2130706433/", "127.0.0.1 is a loopback address"],
    ["http://0x7f.0.0.1/", "127.0.0.1 is a loopback address"],
    ["http://0177.0.0.1/", "127.0.0.1 is a loopback address"],
    ["http://224.0.0.1/", "224.0.0.1 is a multicast address"],
    ["http://localhost:3000/hooks", "localhost resolves to"],
  ])("refuses %s as a 400 naming url, and stores nothing", async (url, reason) => {
    const before = (await api.call("GET", "/v1/webhook-endpoints")).json().data.length;
    const response = await api.call("POST", "/v1/webhook-endpoints", { body: { url } });
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const [error, ...others] = response.json().errors;
    expect(others).toEqual([]);
    expect(error).toMatchObject({ field: "url", location: "body" });
    expect(error.message).toContain(`url refused: ${reason}`);
    expect((await api.call("GET", "/v1/webhook-endpoints")).json().data).toHaveLength(before);
  });

  it("refuses a host that does not resolve", async () => {
    const response = await api.call("POST", "/v1/webhook-endpoints", {
      body: { url: "https://no-such-host.invalid/hooks" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toMatch(/host no-such-host\.invalid could not be resolved/);
  });

  it("accepts an internal host that WEBHOOK_ALLOWED_HOSTS names", async () => {
    const { config } = api.h.ctx;
    api.h.ctx.config = { ...config, WEBHOOK_ALLOWED_HOSTS: ["localhost", "10.0.0.0/8"] };
    try {
      for (const url of ["http://localhost:3000/hooks", "http://10.20.30.40/hooks"]) {
        const response = await api.call("POST", "/v1/webhook-endpoints", { body: { url } });
        expect(response.statusCode, url).toBe(201);
      }
    } finally {
      api.h.ctx.config = config;
    }
  });
});
