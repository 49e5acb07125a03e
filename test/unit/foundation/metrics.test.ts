import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/index.js";
import { scrapeGauges } from "../../../src/http/metrics-gauges.js";
import { REDACTED, redact, redactText, silentLogger } from "../../../src/logger/index.js";
import {
  countChargeAttempt,
  countReconcile,
  type MetricsServer,
  metricsBearerMatches,
  observeGatewayCall,
  recordTickRun,
  registry,
  replayMetric,
  startMetricsServer,
} from "../../../src/metrics/index.js";

/** The value of one series of `name` with exactly these labels, or undefined when it has none. */
async function sampleValue(name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  return values.find(
    (v) =>
      Object.keys(v.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([key, value]) => v.labels[key] === value),
  )?.value;
}

describe("the engine's metric definitions", () => {
  it("names every engine metric billing_*, with its type and labels", async () => {
    const shown = Object.fromEntries(
      (await registry.getMetricsAsJSON()).map((m) => [m.name, { type: m.type, help: m.help }]),
    );
    expect(shown).toMatchObject({
      billing_charge_attempts_total: { type: "counter" },
      billing_gateway_request_duration_seconds: { type: "histogram" },
      billing_reconcile_total: { type: "counter" },
      billing_webhook_deliveries_total: { type: "counter" },
      billing_tick_duration_seconds: { type: "histogram" },
      billing_tick_runs_total: { type: "counter" },
    });
    for (const name of Object.keys(shown)) expect(name).toMatch(/^(billing_|process_|nodejs_)/);
  });

  it("starts known label sets at 0, so rates work from the first event", async () => {
    expect(await sampleValue("billing_tick_runs_total", { outcome: "paused" })).toBe(0);
    expect(await sampleValue("billing_reconcile_total", { outcome: "held" })).toBe(0);
    expect(await sampleValue("billing_webhook_deliveries_total", { result: "failed" })).toBe(0);
    expect(
      await sampleValue("billing_charge_attempts_total", { outcome: "needs_review", decline_code: "" }),
    ).toBe(0);
  });

  it("keeps the decline reason only on declines", async () => {
    countChargeAttempt("declined", "insufficient_funds");
    countChargeAttempt("declined", "insufficient_funds");
    countChargeAttempt("approved", "insufficient_funds");
    expect(
      await sampleValue("billing_charge_attempts_total", {
        outcome: "declined",
        decline_code: "insufficient_funds",
      }),
    ).toBe(2);
    expect(
      await sampleValue("billing_charge_attempts_total", { outcome: "approved", decline_code: "" }),
    ).toBe(1);
    expect(
      await sampleValue("billing_charge_attempts_total", {
        outcome: "approved",
        decline_code: "insufficient_funds",
      }),
    ).toBeUndefined();
  });

  it("observes durations in seconds, by label", async () => {
    observeGatewayCall("legacy.checkStatus", "timeout", 2);
    recordTickRun("ok", 0.3);
    const text = await registry.metrics();
    expect(text).toContain(
      'billing_gateway_request_duration_seconds_count{operation="legacy.checkStatus",outcome="timeout"} 1',
    );
    expect(text).toContain(
      'billing_gateway_request_duration_seconds_bucket{le="2.5",operation="legacy.checkStatus",outcome="timeout"} 1',
    );
    expect(text).toContain('billing_tick_duration_seconds_bucket{le="0.5"} 1');
    expect(text).toContain('billing_tick_runs_total{outcome="ok"} 1');
  });

  it("replays what a worker thread recorded as if recorded here", async () => {
    replayMetric({ name: "recordTickRun", args: ["paused", 4] });
    replayMetric({ name: "observeGatewayCall", args: ["v1.createInvoice", "ok", 0.2] });
    const text = await registry.metrics();
    expect(text).toContain('billing_tick_runs_total{outcome="paused"} 1');
    expect(text).toContain('billing_tick_duration_seconds_bucket{le="5"} 2');
    expect(text).toContain(
      'billing_gateway_request_duration_seconds_count{operation="v1.createInvoice",outcome="ok"} 1',
    );
  });
});

describe("the metrics token", () => {
  const token = "s3cret-metrics-token-0123";

  it("matches only `Bearer <token>`", () => {
    expect(metricsBearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(metricsBearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(metricsBearerMatches(undefined, token)).toBe(false);
    expect(metricsBearerMatches(token, token)).toBe(false);
    expect(metricsBearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(metricsBearerMatches(`Basic ${token}`, token)).toBe(false);
    expect(metricsBearerMatches("Bearer ", token)).toBe(false);
  });

  it("is an optional setting of at least 16 printable characters", () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: token, METRICS_PORT: "9464" })).toMatchObject({
      METRICS_TOKEN: token,
      METRICS_PORT: 9464,
    });
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: "with a space in it, long enough" })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_PORT: "0" })).toThrow(/METRICS_PORT/);
  });

  it("is redacted from logs, as a setting and as a header", () => {
    const out = redact({ METRICS_TOKEN: token, headers: { authorization: `Bearer ${token}` } });
    expect(out).toEqual({ METRICS_TOKEN: REDACTED, headers: { authorization: REDACTED } });
    expect(redactText(`authorization: Bearer ${token}`)).not.toContain(token);
  });
});

describe("a worker's metrics server (METRICS_PORT)", () => {
  const token = "worker-metrics-token-0123456";
  let server: MetricsServer;

  beforeAll(async () => {
    server = await startMetricsServer({ port: 0, host: "127.0.0.1", token, logger: silentLogger });
  });
  afterAll(() => server?.close());

  it("serves the process's metrics at /metrics with the token, and nothing else", async () => {
    countReconcile("not_found");
    expect((await fetch(server.url)).status).toBe(401);
    expect(
      (await fetch(server.url, { headers: { authorization: "Bearer wrong-token-xxxxxxxx" } })).status,
    ).toBe(401);
    expect((await fetch(new URL("/other", server.url), { headers: auth() })).status).toBe(404);

    const response = await fetch(server.url, { headers: auth() });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    expect(text).toContain('billing_reconcile_total{outcome="not_found"} 1');
    expect(text).toContain("process_cpu_user_seconds_total");
    expect(text).toContain("nodejs_eventloop_lag_seconds");
  });

  function auth() {
    return { authorization: `Bearer ${token}` };
  }
});

describe("the metrics documentation", () => {
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
  const documented = new Set([...readme.matchAll(/^\| `(billing_\w+)` /gm)].map((m) => m[1]!));
  // The gauges' collect() runs only at a scrape, so a context that is never used will do.
  const defined = [
    ...registry.getMetricsAsArray(),
    ...scrapeGauges({ db: {} } as unknown as Parameters<typeof scrapeGauges>[0]).getMetricsAsArray(),
  ]
    .map((metric) => metric.name)
    .filter((name) => name.startsWith("billing_"));

  it("lists every billing_* metric in the README's table, and nothing else", () => {
    expect([...documented].sort()).toEqual([...defined].sort());
  });

  it("has an example Grafana dashboard that queries only those metrics", () => {
    const dashboard = JSON.parse(
      readFileSync(new URL("../../../docs/grafana-dashboard.json", import.meta.url), "utf8"),
    ) as { panels: { title: string; targets: { expr: string }[] }[] };
    const queried = dashboard.panels.flatMap((panel) =>
      panel.targets.flatMap((target) =>
        [...target.expr.matchAll(/\b(billing_\w+?)(_bucket|_sum|_count)?\b/g)].map((m) => m[1]!),
      ),
    );
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(7);
    expect(new Set(queried).size).toBeGreaterThan(0);
    for (const name of queried) expect(defined).toContain(name);
  });
});
