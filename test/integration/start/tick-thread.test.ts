import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { threadId } from "node:worker_threads";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/index.js";
import { isSharedClock } from "../../../src/context/index.js";
import { charges, subscriptions } from "../../../src/db/schema/index.js";
import { createLogger } from "../../../src/logger/index.js";
import { registry } from "../../../src/metrics/index.js";
import { createPlan } from "../../../src/plans/index.js";
import { type EngineProcess, startEngineProcess } from "../../../src/runtime/index.js";
import { startTickThread } from "../../../src/runtime/tick-thread.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { waitFor } from "../cli/support.js";
import { CARDS, enrollWithCard, freshDataDir } from "./support.js";

/**
 * `npm start` runs the billing tick on a worker thread of its own (src/runtime/tick-thread.ts),
 * loaded here from the TypeScript sources although vitest's transform does not reach the thread:
 * the ticks' log lines carry the thread's id, their database connections are the thread's own
 * pool, their metrics land in this process's registry, and a month of billing goes through end to
 * end with the clock moved here. close() ends the thread and its connections. A tick, the thread's
 * start included, runs to its end while this event loop is blocked; a thread that cannot start
 * fails the tick with its reason, and the next tick tries a fresh one.
 */

const START_ISO = "2026-03-02T06:00:00.000Z";

/** Lines the engine logged, parsed. */
const lines: Record<string, unknown>[] = [];
const logger = createLogger(
  { level: "info", name: "tick-thread-test" },
  { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
);

async function tickRuns(outcome: string): Promise<number> {
  const { values } = await registry.getSingleMetric("billing_tick_runs_total")!.get();
  return values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

describe("the billing tick on its own thread", () => {
  let database: TestDatabase;
  let dataDir: string;
  let engine: EngineProcess | undefined;
  const threadConnections = async () => {
    const [row] = await database.sql<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = ${database.name} and application_name = 'billing-tick-thread'`;
    return row!.n;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await freshDataDir("billing-tick-thread-");
    engine = await startEngineProcess({
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: "test",
        BILLING_DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        GATEWAY_SIM_PORT: "0",
        PORT: "0",
        HOST: "127.0.0.1",
        BILLING_CLOCK_START: START_ISO,
        BILLING_TICK_SECONDS: "1",
        TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        QUEUE_BACKOFF_MS: "200",
      },
      logger,
    });
  });

  afterAll(async () => {
    await engine?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("runs each tick in a worker thread, logging and counting in this process", async () => {
    const okBefore = await tickRuns("ok");
    await waitFor("two ticks counted here", async () =>
      (await tickRuns("ok")) >= okBefore + 2 ? true : undefined,
    );
    const threadLines = lines.filter((line) => line.tickThread !== undefined);
    expect(threadLines.map((line) => line.msg)).toContain("engine ready");
    expect(new Set(threadLines.map((line) => line.tickThread))).toEqual(new Set([expect.any(Number)]));
    expect(threadLines[0]!.tickThread).not.toBe(threadId);
    // The process logger's bindings, its name among them, once each.
    expect(threadLines[0]!.name).toBe("tick-thread-test");
    expect(await threadConnections()).toBeGreaterThan(0);
    const [run] = await database.sql<{ runs: number; outcome: string }[]>`
      select runs::int as runs, outcome from tick_runs where name = 'billing'`;
    expect(run!.runs).toBeGreaterThanOrEqual(2);
  });

  it("bills a month end to end with the clock moved in this process", async () => {
    const { ctx, simulator } = engine!;
    const plan = await createPlan(
      ctx,
      { name: "Pro", amount: "99.00", currency: "QAR", interval: "month" },
      { actor: "test" },
    );
    const payer = await enrollWithCard(ctx, simulator!, plan.id, "payer@example.qa", CARDS.approves);
    const paidCharges = (count: number) =>
      waitFor(`${count} paid charges`, async () => {
        const rows = await ctx.db
          .select({ status: charges.status })
          .from(charges)
          .where(eq(charges.subscriptionId, payer.subscriptionId))
          .orderBy(asc(charges.periodStart));
        return rows.length === count && rows.every((row) => row.status === "paid") ? rows : undefined;
      });
    await paidCharges(1);
    if (!isSharedClock(ctx.clock)) throw new Error("the zero-config clock is controllable");
    await ctx.clock.advance({ months: 1, days: 1 });
    // The thread's tick reads the moved clock from the database and creates the renewal; this
    // process's charge worker collects it from the simulator, whose clock moved with ours.
    await paidCharges(2);
    const [subscription] = await ctx.db
      .select({ status: subscriptions.status })
      .from(subscriptions)
      .where(eq(subscriptions.id, payer.subscriptionId));
    expect(subscription!.status).toBe("active");
  });

  it("ends the thread and its connections on close()", async () => {
    await engine!.close();
    expect(await threadConnections()).toBe(0);
  });

  it("ticks while this thread's event loop is blocked", async () => {
    // The engine is closed, so this thread is the only one ticking on its database.
    const { ctx, simulator } = engine!;
    const url = ctx.config.DATABASE_URL!;
    const postgresModule = import.meta.resolve("postgres");
    // Read from another process: this event loop is not to turn until the tick has ended.
    const lastRun = (): { runs: number; finished: boolean } =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            "--input-type=module",
            "-e",
            `const { default: postgres } = await import(${JSON.stringify(postgresModule)});
            const sql = postgres(${JSON.stringify(url)}, { max: 1 });
            const [row] = await sql\`select runs::int as runs, finished_at is not null as finished
              from tick_runs where name = 'billing'\`;
            process.stdout.write(JSON.stringify(row));
            await sql.end();`,
          ],
          { encoding: "utf8" },
        ),
      );
    const before = lastRun().runs;
    const gatewayUrls = { baseUrl: simulator!.url, legacyUrl: simulator!.url };
    const thread = startTickThread({ config: ctx.config, gatewayUrls, logger });
    const result = thread.run();
    const deadline = Date.now() + 45_000;
    let seen = lastRun();
    while (!(seen.runs > before && seen.finished) && Date.now() < deadline) seen = lastRun();
    expect(seen).toEqual({ runs: before + 1, finished: true });
    await expect(result).resolves.toMatchObject({ paused: false });
    await thread.close();
  }, 60_000);
});

describe("a tick thread that cannot start", () => {
  it("fails each tick with its reason, starting a fresh thread for the next", async () => {
    const failedBefore = await tickRuns("failed");
    // No DATABASE_URL: the thread's engine refuses to start.
    const thread = startTickThread({ config: loadConfig({ NODE_ENV: "test" }), logger });
    await expect(thread.run()).rejects.toThrow(
      /^the tick thread failed: invalid configuration:.*DATABASE_URL/s,
    );
    await expect(thread.run()).rejects.toThrow(/DATABASE_URL/);
    expect(await tickRuns("failed")).toBe(failedBefore + 2);
    expect(
      lines.filter((line) => String(line.msg).includes("the next tick starts a fresh one")),
    ).toHaveLength(2);
    await thread.close();
    await expect(thread.run()).rejects.toThrow("the tick thread is closed");
  });
});
