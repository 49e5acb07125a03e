import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withDatabase } from "../../../src/db/url.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness, REDIS_URL } from "../../support/engine.js";
import { type CardSubscription, chargesOf, collections, createSubscription, eventually } from "./fixtures.js";

const CHARGE_WORKER = fileURLToPath(new URL("../../../workers/charge-worker.ts", import.meta.url));
const APP = "charge-worker";

interface Worker {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** workers/charge-worker.ts as production runs it, on the harness's database, Redis and simulator. */
function startWorker(h: EngineHarness, env: Record<string, string> = {}): Worker {
  const child = spawn(process.execPath, ["--import", "tsx", CHARGE_WORKER], {
    env: {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: h.database.url,
      REDIS_URL,
      QUEUE_PREFIX: h.ctx.queues.prefix,
      QUEUE_BACKOFF_MS: "20",
      QUEUE_ATTEMPTS: "50",
      GATEWAY_BASE_URL: h.sim.url,
      GATEWAY_LEGACY_URL: h.sim.url,
      GATEWAY_API_KEY: h.sim.defaultApiKey,
      TOKEN_ENCRYPTION_KEY: h.ctx.config.TOKEN_ENCRYPTION_KEY!,
      BILLING_CLOCK: "system",
      // The quiet period before an interrupted attempt is reconciled is 2 × this + 30 s.
      GATEWAY_TIMEOUT_MS: "1000",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * Terminates the worker's backends (only those mid-query or mid-transaction with `busy`, where the
 * driver used to crash); resolves with how many there were.
 */
async function terminateWorkerBackends(h: EngineHarness, { busy = false } = {}): Promise<number> {
  const rows = await h.database.sql<{ pid: number }[]>`
    select pg_terminate_backend(pid), pid from pg_stat_activity
    where datname = current_database() and application_name = ${APP}
      and (not ${busy} or state in ('active', 'idle in transaction'))`;
  return rows.length;
}

/** Lets connections to the harness's database in, or keeps every new one out. */
async function allowConnections(h: EngineHarness, allow: boolean): Promise<void> {
  // From another database: a session cannot close the database it is connected to.
  const admin = postgres(withDatabase(h.database.url, "postgres"), { max: 1, onnotice: () => {} });
  try {
    await admin`alter database ${admin(h.database.name)} with allow_connections ${admin.unsafe(String(allow))}`;
  } finally {
    await admin.end();
  }
}

async function expectPaidExactlyOnce(h: EngineHarness, subs: readonly CardSubscription[]) {
  for (const sub of subs) {
    const ledger = await collections(h, sub.cardToken);
    expect(ledger.map((p) => p.status)).toEqual(["SUCCESS"]);
    const [charge] = await chargesOf(h, sub.subscriptionId);
    expect(charge).toMatchObject({ status: "paid", paidTransactionId: ledger[0]!.transaction_id });
  }
}

/**
 * Chaos on the charge worker's PostgreSQL connections. postgres.js 3.4.9 used to kill the process
 * with `TypeError: Cannot read properties of null (reading 'write')` when a backend died inside a
 * transaction (scripts/patch-dependencies.mjs). The worker must heal: drops shorter than
 * WORKER_CONNECTION_GRACE_MS are waited out and every due charge is collected exactly once; a
 * database gone for longer makes it exit 1 for its supervisor to restart it.
 */
describe("the charge worker when its database connections are terminated", () => {
  let h: EngineHarness;
  let worker: Worker | undefined;

  beforeEach(async () => {
    // Starts at wall time, as the worker's system clock: a retry the dunning policy schedules is
    // then days away, not already overdue.
    h = await createEngineHarness({ chargeBatchSize: 2, start: new Date().toISOString() });
  });
  afterEach(async () => {
    if (worker && worker.child.exitCode === null) {
      worker.child.kill("SIGKILL");
      await worker.exited;
    }
    worker = undefined;
    await allowConnections(h, true);
    await h?.close();
  });

  it("keeps collecting through repeated terminations, each due charge paid exactly once", async () => {
    const subs: CardSubscription[] = [];
    for (let i = 0; i < 10; i += 1) subs.push(await createSubscription(h));
    const start = () => startWorker(h, { WORKER_CONNECTION_GRACE_MS: "30000" });
    worker = start();
    const outputs: (() => string)[] = [worker.output];
    await eventually(async () => expect(await terminateWorkerBackends(h)).toBeGreaterThan(0), 30_000);

    expect(await runBillingTick(h.ctx, { batchSize: 50 })).toMatchObject({ chargesCreated: 10 });
    // Terminate the worker's busy backends whenever it has any, for the first KILLS of them, then
    // let it finish. A worker that gives up must exit non-zero, and is restarted as its supervisor would.
    const KILLS = 12;
    let terminated = 0;
    const exitCodes: (number | null)[] = [];
    // The scheduler ticks meanwhile, as in production: it hands out again charges whose attempt a
    // lost connection left in flight, once the quiet period is over.
    let lastTick = Date.now();
    await eventually(async () => {
      if (Date.now() - lastTick > 2_000) {
        lastTick = Date.now();
        await runBillingTick(h.ctx, { batchSize: 50, stuckAfterMs: 32_000 });
      }
      if (worker!.child.exitCode !== null) {
        exitCodes.push(worker!.child.exitCode);
        worker = start();
        outputs.push(worker.output);
      }
      if (terminated < KILLS) terminated += await terminateWorkerBackends(h, { busy: true });
      const statuses = await Promise.all(
        subs.map(async (sub) => (await chargesOf(h, sub.subscriptionId))[0]!.status),
      );
      expect(statuses.filter((status) => status !== "paid")).toEqual([]);
    }, 120_000);

    expect(terminated).toBeGreaterThan(1);
    expect(exitCodes.filter((code) => code === 0)).toEqual([]);
    await expectPaidExactlyOnce(h, subs);
    const output = outputs.map((read) => read()).join("\n");
    expect(output).not.toMatch(/TypeError/);
    // Healed, not half-dead: the worker running now still stops cleanly.
    const running = worker!;
    running.child.kill("SIGTERM");
    expect(await running.exited, running.output()).toBe(0);
  }, 180_000);

  it("exits 1 when the database stays unreachable past WORKER_CONNECTION_GRACE_MS", async () => {
    // A short shutdown budget: the exit must not wait the default 30 s for pools that cannot close.
    worker = startWorker(h, {
      WORKER_CONNECTION_GRACE_MS: "1000",
      SHUTDOWN_TIMEOUT_MS: "3000",
      LOG_LEVEL: "info",
    });
    const running = worker;
    // Cut the database only once the worker runs (its connection watch starts after boot); on a
    // loaded machine having a backend is not enough, it may still be booting.
    await eventually(async () => expect(running.output()).toContain("worker process running"), 60_000);
    await eventually(async () => expect(await terminateWorkerBackends(h)).toBeGreaterThan(0), 30_000);

    await allowConnections(h, false);
    await terminateWorkerBackends(h);

    const code = await Promise.race([
      running.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 40_000).unref()),
    ]);
    expect(code, running.output()).toBe(1);
    expect(running.output()).not.toMatch(/TypeError/);
  }, 150_000);
});
