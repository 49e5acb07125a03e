import { once } from "node:events";
import { connect } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../../src/apikeys/index.js";
import { buildServer, type RunningServer, startServer } from "../../../src/app/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";

/**
 * Load shedding: past a threshold every request but liveness is answered 503 with Retry-After.
 * The pressure is made certain rather than made: a heap threshold of 1 MiB, which any process is
 * over from the first sample (about a second after start; polled for, with a deadline), and one
 * place for requests in progress, held by a request whose body has not all come.
 */

let h: EngineHarness;
let app: FastifyInstance;
let key: string;

beforeAll(async () => {
  h = await createEngineHarness({ env: { LOAD_SHED_MAX_HEAP_MB: "1", LOAD_SHED_RETRY_AFTER_SECONDS: "7" } });
  key = (await createApiKey(h.ctx.db, { name: "shed" })).key;
  app = buildServer(h.ctx);
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

describe("load shedding", () => {
  it("answers 503 with Retry-After under pressure, except liveness", async () => {
    const deadline = Date.now() + 30_000;
    let shed = await app.inject({ url: "/ops/login" });
    while (shed.statusCode !== 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      shed = await app.inject({ url: "/ops/login" });
    }
    expect(shed.statusCode).toBe(503);
    expect(shed.headers["retry-after"]).toBe("7");

    for (const request of [
      { url: "/readyz" },
      { url: "/v1/plans", headers: { authorization: `Bearer ${key}` } },
      { url: "/portal/open?token=x" },
    ]) {
      const response = await app.inject(request);
      expect(response.statusCode, request.url).toBe(503);
      expect(response.headers["retry-after"], request.url).toBe("7");
      expect(response.json(), request.url).toEqual({ error: "the server is overloaded: retry later" });
    }

    const live = await app.inject({ url: "/healthz" });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ status: "ok" });
  });
});

/** A login whose body is still on its way: it holds a place until finish() sends the rest. */
async function heldLogin(server: RunningServer): Promise<{ finish(): Promise<string> }> {
  const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
  await once(socket, "connect");
  const answer = new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (chunk) => {
      text += String(chunk);
    });
    socket.on("end", () => resolve(text));
  });
  socket.write(
    "POST /ops/login HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
      "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 13\r\n\r\nkey=",
  );
  return {
    finish() {
      socket.write("not-a-key");
      return answer;
    },
  };
}

/** GETs `url` until it is answered 503, within a deadline. */
async function untilShed(url: string): Promise<Response> {
  const deadline = Date.now() + 30_000;
  let response = await fetch(url);
  while (response.status !== 503 && Date.now() < deadline) {
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    response = await fetch(url);
  }
  return response;
}

describe("shedding at the door while LOAD_SHED_MAX_IN_FLIGHT requests are in progress", () => {
  const held = 1;
  let g: EngineHarness;
  let server: RunningServer;

  beforeAll(async () => {
    g = await createEngineHarness({
      env: { LOAD_SHED_MAX_IN_FLIGHT: "1", LOAD_SHED_RETRY_AFTER_SECONDS: "3" },
    });
    server = await startServer(g.ctx, { port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await server?.close();
    await g?.close();
  });

  it("answers 503 with Retry-After at once, except liveness, and lets requests in again after", async () => {
    const logins = await Promise.all(Array.from({ length: held }, () => heldLogin(server)));
    const shed = await untilShed(`${server.url}/ops/login`);
    expect(shed.status).toBe(503);
    expect(shed.headers.get("retry-after")).toBe("3");
    expect(await shed.json()).toEqual({ error: "the server is overloaded: retry later" });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    for (const answer of await Promise.all(logins.map((login) => login.finish()))) {
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    }
    expect((await fetch(`${server.url}/ops/login`)).status).toBe(200);
  });
});
