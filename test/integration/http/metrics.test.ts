import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer, runTick } from "../../../src/app/index.js";
import { startChargeWorker } from "../../../src/charging/index.js";
import type { EngineContext } from "../../../src/context/index.js";
import { findFreePort } from "../../../src/infra/index.js";
import { createLogger, silentLogger } from "../../../src/logger/index.js";
import { startEngineProcess } from "../../../src/runtime/index.js";
import { webhooks } from "../../../src/runtime/roles.js";
import { createWebhookEndpoint } from "../../../src/webhooks/index.js";
import { createEngineHarness, type EngineHarness, REDIS_URL } from "../../support/engine.js";
import { RECEIVER_HOSTS } from "../../webhooks/fixtures.js";
import { WebhookReceiver } from "../../webhooks/receiver.js";
import { CARDS, createSubscription, eventually, onlyCharge } from "../charging/fixtures.js";

/**
 * GET /metrics on the engine's HTTP server, scraped with app.inject while real charges go through
 * the simulator: the counters and histograms move with the right labels once outcomes are written,
 * the gauges read from Postgres and the queues show the engine's state, a read that hangs leaves its
 * gauge out of the scrape instead of hanging it, and METRICS_TOKEN guards the route.
 */

type Labels = Record<string, string>;

/** Every sample of `name` in a Prometheus text exposition. */
function samples(text: string, name: string): { labels: Labels; value: number }[] {
  const found: { labels: Labels; value: number }[] = [];
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    found.push({ labels, value: Number(match[3]) });
  }
  return found;
}

/** The value of the one sample with exactly these labels; undefined when there is none. */
function sampleValue(text: string, name: string, labels: Labels = {}): number | undefined {
  const wanted = Object.entries(labels);
  return samples(text, name).find(
    (s) =>
      Object.keys(s.labels).length === wanted.length &&
      wanted.every(([key, value]) => s.labels[key] === value),
  )?.value;
}

describe("GET /metrics", () => {
  let h: EngineHarness;
  let app: FastifyInstance;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    h = await createEngineHarness({ gatewayTimeoutMs: 300 });
    // The receiver is on 127.0.0.1, which webhooks are only sent to when allow-listed.
    h.ctx.config = { ...h.ctx.config, RECONCILE_MAX_TRIES: 3, WEBHOOK_ALLOWED_HOSTS: RECEIVER_HOSTS };
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
    receiver = await WebhookReceiver.start();
    receiver.secret = (await createWebhookEndpoint(h.ctx, { url: receiver.url })).secret;
    await webhooks(h.ctx);
    app = buildServer(h.ctx);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.close();
    await h?.close();
  });

  async function scrape(server: FastifyInstance = app): Promise<string> {
    const response = await server.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    return response.body;
  }

  /** How much each sample moved between two scrapes (a missing sample counts as 0). */
  function moved(before: string, after: string, name: string, labels: Labels = {}): number {
    return (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
  }

  const fault = (spec: Record<string, unknown>) => h.simAdmin("POST", "/_sim/faults", spec);

  it("counts an approved charge, its gateway call, the tick and the webhook it sends", async () => {
    const sub = await createSubscription(h, { card: CARDS.approves });
    const before = await scrape();

    await runTick(h.ctx);
    await onlyCharge(h, sub.subscriptionId, { status: "paid" });
    // The charge.succeeded webhook goes out with the next tick's dispatch.
    await runTick(h.ctx);
    await receiver.waitForCount(1);

    const after = await eventually(async () => {
      const text = await scrape();
      expect(
        moved(before, text, "billing_charge_attempts_total", { outcome: "approved", decline_code: "" }),
      ).toBe(1);
      expect(moved(before, text, "billing_webhook_deliveries_total", { result: "delivered" })).toBe(
        receiver.received.length,
      );
      return text;
    });
    const getNewPayment = { operation: "legacy.getNewPayment", outcome: "ok" };
    expect(moved(before, after, "billing_gateway_request_duration_seconds_count", getNewPayment)).toBe(1);
    expect(
      moved(before, after, "billing_gateway_request_duration_seconds_bucket", {
        ...getNewPayment,
        le: "+Inf",
      }),
    ).toBe(1);
    expect(moved(before, after, "billing_tick_runs_total", { outcome: "ok" })).toBe(2);
    expect(moved(before, after, "billing_tick_duration_seconds_count")).toBe(2);

    expect(sampleValue(after, "billing_subscriptions", { status: "active" })).toBe(1);
    expect(sampleValue(after, "billing_subscriptions", { status: "canceled" })).toBe(0);
    expect(sampleValue(after, "billing_charges_held")).toBe(0);
    expect(sampleValue(after, "billing_gateway_breaker_open")).toBe(0);
    expect(sampleValue(after, "billing_oldest_due_charge_lag_seconds")).toBe(0);
    expect(sampleValue(after, "billing_tick_last_run_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(sampleValue(after, "billing_queue_jobs", { queue: "charges", state: "failed" })).toBe(0);
    expect(samples(after, "billing_queue_jobs").map((s) => s.labels.queue)).toEqual(
      expect.arrayContaining(["billing-tick", "charges", "invoices", "token-deactivation", "webhooks"]),
    );
    // Node's process metrics are there too, and the gauges' text starts on a line of its own.
    expect(after).toContain("process_resident_memory_bytes");
    expect(after).toMatch(/^# TYPE billing_queue_jobs gauge$/m);
  });

  it("counts a charge whose outcome stayed unknown until it was held, and shows it held", async () => {
    const sub = await createSubscription(h, { card: CARDS.approves });
    const before = await scrape();
    await fault({ operation: "GetnewPayment", kind: "hang", times: 1 });
    await fault({ operation: "CheckStatus", kind: "error5xx" });
    try {
      await runTick(h.ctx);
      await onlyCharge(h, sub.subscriptionId, { status: "needs_review" });
    } finally {
      await h.simAdmin("DELETE", "/_sim/faults");
    }

    const after = await eventually(async () => {
      const text = await scrape();
      expect(moved(before, text, "billing_reconcile_total", { outcome: "held" })).toBe(1);
      return text;
    });
    expect(
      moved(before, after, "billing_charge_attempts_total", { outcome: "unknown", decline_code: "" }),
    ).toBe(1);
    expect(
      moved(before, after, "billing_charge_attempts_total", { outcome: "needs_review", decline_code: "" }),
    ).toBe(1);
    expect(moved(before, after, "billing_reconcile_total", { outcome: "still_unknown" })).toBe(2);
    expect(
      moved(before, after, "billing_gateway_request_duration_seconds_count", {
        operation: "legacy.getNewPayment",
        outcome: "timeout",
      }),
    ).toBe(1);
    expect(
      moved(before, after, "billing_gateway_request_duration_seconds_count", {
        operation: "legacy.checkStatus",
        outcome: "error",
      }),
    ).toBeGreaterThanOrEqual(3);
    expect(sampleValue(after, "billing_charges_held")).toBe(1);
  });

  it("counts a decline by its reason, and shows how long the oldest due charge has waited", async () => {
    const sub = await createSubscription(h, { card: CARDS.alwaysDeclined });
    const before = await scrape();
    await runTick(h.ctx);
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: 1 });

    const declined = { outcome: "declined", decline_code: "insufficient_funds" };
    const after = await eventually(async () => {
      const text = await scrape();
      expect(moved(before, text, "billing_charge_attempts_total", declined)).toBe(1);
      return text;
    });
    expect(sampleValue(after, "billing_oldest_due_charge_lag_seconds")).toBe(0);

    // An hour past its retry (billing clock), with no tick to collect it.
    h.clock.set(new Date(charge.nextAttemptAt!.getTime() + 3_600_000));
    expect(sampleValue(await scrape(), "billing_oldest_due_charge_lag_seconds")).toBe(3600);
  });

  it("shows the circuit breaker open", async () => {
    await h.ctx.db.$client`
      insert into gateway_breaker (id, opened_at, reason, signal) values (1, now(), 'test', 'token_refused')
      on conflict (id) do update set opened_at = now(), reason = 'test', closed_at = null`;
    try {
      expect(sampleValue(await scrape(), "billing_gateway_breaker_open")).toBe(1);
    } finally {
      await h.ctx.db.$client`update gateway_breaker set closed_at = now(), closed_by = 'test' where id = 1`;
    }
    expect(sampleValue(await scrape(), "billing_gateway_breaker_open")).toBe(0);
  });

  it("leaves out a gauge whose read hangs, and still answers", async () => {
    // The charges table locked, so its queries wait; and a queue backend that never answers.
    const hanging = {
      ...h.ctx,
      queues: { ...h.ctx.queues, queue: () => ({ getJobCounts: () => new Promise(() => {}) }) },
    } as unknown as EngineContext;
    const server = buildServer(hanging);
    const lock = await h.ctx.db.$client.reserve();
    try {
      await lock`begin`;
      await lock`lock table charges in access exclusive mode`;
      const text = await scrape(server);
      expect(samples(text, "billing_charges_held")).toEqual([]);
      expect(samples(text, "billing_oldest_due_charge_lag_seconds")).toEqual([]);
      expect(samples(text, "billing_queue_jobs")).toEqual([]);
      expect(sampleValue(text, "billing_gateway_breaker_open")).toBe(0);
      expect(samples(text, "billing_subscriptions").length).toBeGreaterThan(0);
    } finally {
      await lock`rollback`;
      lock.release();
      await server.close();
    }
    // The cancelled query left nothing behind: the next scrape reads the table again.
    expect(sampleValue(await scrape(), "billing_charges_held")).toBe(1);
  });

  it("wants the bearer token when METRICS_TOKEN is set, and never logs it", async () => {
    const token = "metrics-token-for-tests-0123456789";
    const lines: string[] = [];
    const logger = createLogger(
      { level: "debug" },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const guarded = buildServer({ ...h.ctx, config: { ...h.ctx.config, METRICS_TOKEN: token } }, { logger });
    try {
      const get = (headers: Record<string, string> = {}) =>
        guarded.inject({ method: "GET", url: "/metrics", headers });
      expect((await get()).statusCode).toBe(401);
      expect((await get({ authorization: "Bearer not-the-metrics-token-000000" })).statusCode).toBe(401);
      expect((await get({ authorization: token })).statusCode).toBe(401);
      const allowed = await get({ authorization: `Bearer ${token}` });
      expect(allowed.statusCode).toBe(200);
      expect(allowed.body).toContain("billing_charge_attempts_total");
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join("")).not.toContain(token);
    } finally {
      await guarded.close();
    }
    // Unset, the route is open (the README says to keep it on the private network).
    expect((await app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(200);
  });

  it("serves a worker process's own counters on METRICS_PORT, without the database gauges", async () => {
    const token = "worker-metrics-token-0123456789";
    const port = await findFreePort();
    const worker = await startEngineProcess({
      env: {
        NODE_ENV: "test",
        DATABASE_URL: h.database.url,
        REDIS_URL,
        QUEUE_PREFIX: `t_${randomBytes(5).toString("hex")}`,
        GATEWAY_BASE_URL: h.sim.url,
        GATEWAY_LEGACY_URL: h.sim.url,
        GATEWAY_API_KEY: h.sim.defaultApiKey,
        TOKEN_ENCRYPTION_KEY: h.ctx.config.TOKEN_ENCRYPTION_KEY,
        HOST: "127.0.0.1",
        METRICS_PORT: String(port),
        METRICS_TOKEN: token,
        LOG_LEVEL: "silent",
      },
      logger: silentLogger,
      parts: { http: false, scheduler: false, workers: true },
    });
    const url = `http://127.0.0.1:${port}/metrics`;
    try {
      expect((await fetch(url)).status).toBe(401);
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toContain("billing_charge_attempts_total");
      expect(text).toContain("process_cpu_user_seconds_total");
      expect(text).not.toContain("billing_charges_held");
    } finally {
      await worker.ctx.queues.obliterate().catch(() => undefined);
      await worker.close();
    }
    // Closed with the process: the port no longer answers.
    await expect(fetch(url)).rejects.toThrow();
  });
});
