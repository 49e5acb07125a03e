import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerOpenApi } from "../../../src/api/openapi.js";
import { type RunningServer, startServer } from "../../../src/app/index.js";
import { type ApiHarness, createApiHarness, PLAN_BODY } from "./support.js";

/**
 * /docs "Try it out" from the address the engine prints. The document's server is resolved, as
 * Swagger UI resolves it, against the address the document was loaded from: the public URL says
 * localhost, the banner 127.0.0.1, and the calls must still reach this engine, same-origin.
 */

let api: ApiHarness;
let server: RunningServer;
beforeAll(async () => {
  api = await createApiHarness({ publicUrl: "http://localhost:3000" });
  server = await startServer(api.h.ctx, { port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await server?.close();
  await api?.close();
});

interface Document {
  servers: { url: string }[];
}

/** The base URL Swagger UI calls for the document at `documentUrl` (its trailing slash dropped). */
const baseOf = (document: Document, documentUrl: string): string =>
  new URL(document.servers[0]!.url, documentUrl).href.replace(/\/$/, "");

describe("the OpenAPI document's server", () => {
  it("is the address the docs were loaded from, so Try it out calls this engine", async () => {
    // Swagger UI at /docs loads /docs/json; clients load /openapi.json. Both say the same.
    for (const path of ["/docs/json", "/openapi.json"]) {
      const loaded = `${server.url}${path}`;
      const document = (await (await fetch(loaded)).json()) as Document;
      expect(document.servers).toEqual([
        { url: "/", description: "This engine, at the address this document was loaded from" },
      ]);
      expect(baseOf(document, loaded)).toBe(server.url);
    }

    // What "Try it out" then sends, to the printed address: the API answers it.
    const document = (await (await fetch(`${server.url}/docs/json`)).json()) as Document;
    const base = baseOf(document, `${server.url}/docs/json`);
    const created = await fetch(`${base}/v1/plans`, {
      method: "POST",
      headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
      body: JSON.stringify(PLAN_BODY),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: "Gold monthly", amount: { amount: "100.00" } });
  });

  it("keeps the path prefix of a public URL behind a proxy", async () => {
    const app = Fastify();
    registerOpenApi(app, "https://pay.example.qa/billing");
    await app.ready();
    const document = (await app.inject({ url: "/openapi.json" })).json() as Document;
    expect(document.servers[0]!.url).toBe("/billing");
    // Loaded through the proxy, at its prefix: the calls go back through it.
    expect(baseOf(document, "https://pay.example.qa/billing/docs/json")).toBe(
      "https://pay.example.qa/billing",
    );
    await app.close();
  });
});
