import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControllableClock } from "../../../src/clock/index.js";
import { BILLING_TICK, recordTickEnd, recordTickStart } from "../../../src/scheduler/index.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { REDIS_URL } from "../../support/engine.js";
import { runBilling } from "./support.js";

/**
 * `billing status` as a child process, against a fresh database, Redis and a simulator: exit code 0
 * when ready and 1 when not, the checks as a table, or the /readyz document with --json. The tick's
 * state is written to tick_runs directly, as a scheduler would have left it.
 */

let database: TestDatabase;
let simulator: RunningSimulator;
let env: NodeJS.ProcessEnv;

async function tickStarted(ageSeconds: number) {
  await recordTickStart(database.sql, BILLING_TICK);
  await recordTickEnd(database.sql, BILLING_TICK, { outcome: "ok", durationMs: 42 });
  await database.sql`
    update tick_runs set started_at = started_at - make_interval(secs => ${ageSeconds})
    where name = ${BILLING_TICK}`;
}

beforeAll(async () => {
  database = await createTestDatabase();
  simulator = await startSimulator({ clock: new ControllableClock("2026-01-15T09:00:00Z") });
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    REDIS_URL,
    QUEUE_PREFIX: `t_${randomBytes(5).toString("hex")}`,
    GATEWAY_BASE_URL: simulator.url,
    GATEWAY_LEGACY_URL: simulator.url,
    GATEWAY_API_KEY: simulator.defaultApiKey,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    BILLING_TICK_SECONDS: "5",
    LOG_LEVEL: "silent",
  };
}, 60_000);

afterAll(async () => {
  await simulator?.close();
  await database?.drop();
});

describe("billing status", () => {
  it("prints the checks at a glance and exits 0 when ready", async () => {
    await tickStarted(3);
    const run = await runBilling(["status"], env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines).toContain("status     ready");
    expect(lines).toContain("breaker    closed");
    expect(run.stdout).toMatch(/^last tick {2}started \S+ \(\d+ s ago\), ok in 42 ms$/m);
    expect(run.stdout).toMatch(/^check {12}status {2}detail$/m);
    expect(run.stdout).toMatch(/^database {9}ok {6}answers$/m);
    expect(run.stdout).toMatch(/^queue {12}ok {6}redis answers; charges: 0 waiting/m);
    expect(run.stdout).toMatch(/^gateway {10}ok {6}http:\/\/127\.0\.0\.1:\d+ answered HTTP \d+/m);
    expect(run.stdout).toMatch(/^tick {13}ok {6}last tick \d+ s ago, took 42 ms$/m);
    expect(run.stdout).toMatch(/^gateway_breaker {2}ok {6}closed$/m);
  });

  it("prints the /readyz document with --json, and exits 1 when a check fails", async () => {
    await tickStarted(600);
    const run = await runBilling(["status", "--json"], env);
    expect(run.code, run.stderr).toBe(1);
    const document = JSON.parse(run.stdout);
    expect(document.status).toBe("not_ready");
    expect(Object.keys(document.checks)).toEqual(["database", "queue", "gateway", "tick", "gateway_breaker"]);
    expect(document.checks.tick).toMatchObject({
      status: "failing",
      reason: expect.stringContaining("is the scheduler running?"),
      detail: { outcome: "ok", duration_ms: 42, stall_limit_seconds: 60 },
    });
    expect(document.checks.database).toEqual({ status: "ok", reason: "answers" });
  });
});
