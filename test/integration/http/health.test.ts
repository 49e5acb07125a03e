import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildServer } from "../../../src/app/index.js";
import type { EngineContext } from "../../../src/context/index.js";
import { createGatewayClient } from "../../../src/gateway/index.js";
import { registerHealthRoutes } from "../../../src/http/index.js";
import { findFreePort } from "../../../src/infra/index.js";
import { BILLING_TICK, recordTickEnd, recordTickStart } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";

/**
 * /healthz and /readyz on a real engine: PostgreSQL, Redis and the simulator over HTTP. The tick's
 * state is written to tick_runs directly, as a scheduler would have left it. The routes are served
 * by a process "up for an hour", past the tick's start-up grace, unless a test says otherwise.
 */

let h: EngineHarness;
let app: FastifyInstance;
let uptime = 3600;

function serve(ctx: EngineContext): FastifyInstance {
  const server = Fastify();
  registerHealthRoutes(server, ctx, { uptimeSeconds: () => uptime });
  return server;
}

async function readyz(server = app) {
  const response = await server.inject({ url: "/readyz" });
  return { code: response.statusCode, body: response.json() };
}

/** A tick that started `ageSeconds` ago by Postgres's clock, finished unless `running`. */
async function tickStarted(
  ageSeconds: number,
  { running = false, failed }: { running?: boolean; failed?: string } = {},
) {
  const sql = h.ctx.db.$client;
  await recordTickStart(sql, BILLING_TICK);
  if (!running) {
    await recordTickEnd(sql, BILLING_TICK, {
      outcome: failed ? "failed" : "ok",
      durationMs: 42,
      ...(failed ? { error: failed } : {}),
    });
  }
  await sql`
    update tick_runs set started_at = started_at - make_interval(secs => ${ageSeconds})
    where name = ${BILLING_TICK}`;
}

beforeAll(async () => {
  h = await createEngineHarness();
  app = serve(h.ctx);
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});
beforeEach(() => {
  uptime = 3600;
});

describe("/healthz", () => {
  it("answers ok with the uptime, without reading the database or the billing clock", async () => {
    // A clock whose refresh fails stands for a database that does not answer.
    const { clock } = h.ctx;
    const broken = Object.assign(Object.create(Object.getPrototypeOf(clock)), clock, {
      refresh: () => Promise.reject(new Error("database unreachable")),
    });
    const server = buildServer({ ...h.ctx, clock: broken });
    try {
      const response = await server.inject({ url: "/healthz" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: "ok", uptime_seconds: expect.any(Number) });
      // /readyz is not held up by the clock either: it answers with its own checks.
      expect((await server.inject({ url: "/readyz" })).statusCode).not.toBe(500);
    } finally {
      await server.close();
    }
  });
});

describe("/readyz", () => {
  it("is ready when every check passes, with a reason for each", async () => {
    await tickStarted(5);
    const { code, body } = await readyz();
    expect(code).toBe(200);
    expect(body.status).toBe("ready");
    expect(body.checks).toMatchObject({
      database: { status: "ok", reason: "answers" },
      queue: {
        status: "ok",
        reason: expect.stringMatching(/^redis answers; charges: 0 waiting/),
        detail: { backend: "redis", queue: "charges", waiting: 0 },
      },
      gateway: {
        status: "ok",
        reason: expect.stringContaining(`${h.sim.url} answered HTTP`),
        detail: { url: h.sim.url, http_status: expect.any(Number) },
      },
      tick: {
        status: "ok",
        reason: expect.stringMatching(/^last tick \d+ s ago, took 42 ms$/),
        detail: { outcome: "ok", duration_ms: 42, stall_limit_seconds: 180 },
      },
      gateway_breaker: { status: "ok", reason: "closed" },
    });
  });

  it("stays ready, with a warning, when the last tick failed", async () => {
    await tickStarted(5, { failed: "clock store unreachable" });
    const { code, body } = await readyz();
    expect(code).toBe(200);
    expect(body.checks.tick).toMatchObject({
      status: "warn",
      reason: expect.stringContaining("clock store unreachable"),
    });
  });

  it("is not ready when the tick stalled, or is still running after too long", async () => {
    await tickStarted(600);
    const stalled = await readyz();
    expect(stalled.code).toBe(503);
    expect(stalled.body.status).toBe("not_ready");
    expect(stalled.body.checks.tick).toMatchObject({
      status: "failing",
      reason: expect.stringMatching(/^the last tick started \d+ s ago .*is the scheduler running\?$/),
    });
    expect(stalled.body.checks.database.status).toBe("ok");

    await tickStarted(600, { running: true });
    const hung = await readyz();
    expect(hung.code).toBe(503);
    expect(hung.body.checks.tick.reason).toMatch(/started \d+ s ago and is still running/);
  });

  it("is not ready when no tick ever ran, except in a process that just started", async () => {
    await h.ctx.db.$client`delete from tick_runs`;
    const never = await readyz();
    expect(never.code).toBe(503);
    expect(never.body.checks.tick).toMatchObject({
      status: "failing",
      reason: "no tick recorded yet: is the scheduler running?",
    });

    uptime = 5;
    const starting = await readyz();
    expect(starting.code).toBe(200);
    expect(starting.body.checks.tick.reason).toMatch(/^no tick recorded yet; this process started 5 s ago/);
  });

  it("is not ready when the gateway does not answer", async () => {
    await tickStarted(5);
    const closedPort = await findFreePort();
    const baseUrl = `http://127.0.0.1:${closedPort}`;
    const gateway = createGatewayClient({ baseUrl, legacyUrl: baseUrl, apiKey: h.sim.defaultApiKey });
    const server = serve({ ...h.ctx, gateway });
    try {
      const { code, body } = await readyz(server);
      expect(code).toBe(503);
      expect(body.status).toBe("not_ready");
      expect(body.checks.gateway).toMatchObject({
        status: "failing",
        reason: expect.stringContaining(`${baseUrl} unreachable`),
      });
      expect(body.checks.database.status).toBe("ok");
    } finally {
      await server.close();
    }
  });

  it("is paused while the circuit breaker is open, saying why and how to resume", async () => {
    await tickStarted(5);
    await h.ctx.db.$client`
      insert into gateway_breaker (id, opened_at, reason, signal)
      values (1, now(), '12 different cards refused with -7', 'token_refused')
      on conflict (id) do update set opened_at = now(), closed_at = null, reason = excluded.reason`;
    try {
      const { code, body } = await readyz();
      expect(code).toBe(503);
      expect(body.status).toBe("paused");
      expect(body.checks.gateway_breaker).toMatchObject({
        status: "failing",
        reason: expect.stringMatching(
          /12 different cards refused with -7; resume with `billing breaker resume`$/,
        ),
        detail: { state: "open", signal: "token_refused" },
      });
    } finally {
      await h.ctx.db.$client`update gateway_breaker set closed_at = now() where id = 1`;
    }
  });
});
