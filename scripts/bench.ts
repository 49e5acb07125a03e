/**
 * Billing benchmark (`npm run bench`): N subscriptions fall due at the same moment; the billing
 * tick creates their charges and charge workers collect them through GetnewPayment against the
 * simulator, which runs in a child process so that it does not share this event loop. Prints the
 * charges per second, the workers' peak memory, and checks that every charge was collected exactly
 * once according to the simulator's ledger.
 *
 * Where the charge workers run:
 * - BENCH_WORKERS unset: one charge worker inside this process, next to the billing tick (the
 *   historical figure; peak RSS is this process's, sampled every 50 ms).
 * - BENCH_WORKERS=K (K >= 1, so K=1 is the one-process baseline to compare K=2, 3… against): K
 *   separate `node --import tsx workers/charge-worker.ts` processes, as the engine is deployed, each
 *   with BENCH_CONCURRENCY jobs at a time; BENCH_RATE stays one limit shared by all of them (BullMQ's
 *   limiter is per queue). They boot after enrolment with this run's database, Redis prefix, gateway
 *   and token key (key id "bench", NODE_ENV=production so a missing key stops them instead of
 *   generating a development one); the clock starts once BullMQ lists all K of them on the charges
 *   queue. This process still runs the billing ticks. Each worker's peak RSS is its VmHWM from
 *   /proc/<pid>/status (Linux), read once every charge is paid and before the worker is stopped with
 *   SIGTERM; the max and the sum over the K processes are printed.
 *
 *   BENCH_SUBSCRIPTIONS  how many subscriptions fall due (default 1000)
 *   BENCH_WORKERS        charge worker processes (default: unset, one worker in this process)
 *   BENCH_CONCURRENCY    charge worker concurrency, per worker (default 32)
 *   BENCH_RATE           charges per second allowed toward the gateway, all workers together (default 100000)
 *   BENCH_REDIS_URL      Redis for the queues (default redis://127.0.0.1:6379)
 *   BENCH_DATABASE_URL   maintenance database of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { count, eq } from "drizzle-orm";
import postgres from "postgres";
import { z } from "zod";
import type { EngineContext } from "../src/app/index.js";
import { DEFAULT_DUNNING_POLICY } from "../src/billing/index.js";
import { startChargeWorker } from "../src/charging/index.js";
import { systemClock } from "../src/clock/index.js";
import { loadConfig } from "../src/config/index.js";
import { vaultFromConfig } from "../src/crypto/index.js";
import { createCustomer } from "../src/customers/index.js";
import { createDb, migrateDatabase } from "../src/db/index.js";
import { charges } from "../src/db/schema/index.js";
import { withDatabase } from "../src/db/url.js";
import { applyGatewayCallback, enroll } from "../src/enrollment/index.js";
import { createGatewayClient } from "../src/gateway/index.js";
import { silentLogger } from "../src/logger/index.js";
import { createPlan } from "../src/plans/index.js";
import { type BillingQueue, createQueueSystem, QUEUE_NAMES } from "../src/queue/index.js";
import { runBillingTick } from "../src/scheduler/index.js";

const env = z
  .object({
    BENCH_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(100_000).default(1000),
    BENCH_WORKERS: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(1).max(32).optional(),
    ),
    BENCH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
    BENCH_RATE: z.coerce.number().int().min(1).default(100_000),
    BENCH_REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
    BENCH_DATABASE_URL: z.string().default("postgres://postgres@127.0.0.1:5432/postgres"),
  })
  .parse(process.env);

const DEADLINE_MS = 10 * 60_000;
/** How long K worker processes may take to boot (tsx, migration check, connections) on a busy machine. */
const WORKER_READY_MS = 120_000;
/** Past the workers' own SHUTDOWN_TIMEOUT_MS (30 s by default), a worker that has not exited is killed. */
const WORKER_STOP_MS = 40_000;
/** The token vault's key id, in this process and in the worker processes alike. */
const VAULT_KEY_ID = "bench";

async function startSimulatorProcess(): Promise<{ url: string; apiKey: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/gateway.ts"], {
    env: { ...process.env, GATEWAY_SIM_PORT: "0", LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  let url = "";
  let apiKey = "";
  for await (const line of lines) {
    url ||= /listening on (\S+)/.exec(line)?.[1] ?? "";
    apiKey ||= /api key: (\S+)/.exec(line)?.[1] ?? "";
    if (url && apiKey) break;
  }
  if (!url || !apiKey) throw new Error("the simulator did not print its URL and API key");
  return { url, apiKey, child };
}

interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts K charge worker processes; nothing is awaited here (see waitForWorkers). */
function startWorkerProcesses(k: number, workerEnv: NodeJS.ProcessEnv): WorkerProcess[] {
  return Array.from({ length: k }, () => {
    const child = spawn(process.execPath, ["--import", "tsx", "workers/charge-worker.ts"], {
      env: workerEnv,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
      child.once("error", () => resolve({ code: child.exitCode, signal: child.signalCode }));
    });
    return { child, exited };
  });
}

function hasExited({ child }: WorkerProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null || child.pid === undefined;
}

/** Resolves once BullMQ lists a worker of every process on the charges queue (CLIENT LIST names). */
async function waitForWorkers(queue: BillingQueue, workers: readonly WorkerProcess[]): Promise<void> {
  const start = performance.now();
  for (;;) {
    const dead = workers.find(hasExited);
    if (dead) {
      throw new Error(
        `charge worker process ${dead.child.pid ?? "(not started)"} exited (code ${dead.child.exitCode}, signal ${dead.child.signalCode}) before it was ready`,
      );
    }
    if ((await queue.getWorkersCount()) >= workers.length) return;
    if (performance.now() - start > WORKER_READY_MS) {
      throw new Error(
        `the ${workers.length} charge worker processes were not ready in ${WORKER_READY_MS} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The process's peak resident set (VmHWM) in bytes, or undefined where /proc is not available. */
async function peakRssOf(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** SIGTERM (graceful shutdown), then SIGKILL past WORKER_STOP_MS; returns the exits. Idempotent. */
async function stopWorkerProcesses(workers: readonly WorkerProcess[]) {
  return Promise.all(
    workers.map(async (worker) => {
      if (!hasExited(worker)) worker.child.kill("SIGTERM");
      const timer = setTimeout(() => worker.child.kill("SIGKILL"), WORKER_STOP_MS);
      try {
        return await worker.exited;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function inBatches<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: width }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

async function main() {
  const n = env.BENCH_SUBSCRIPTIONS;
  const sim = await startSimulatorProcess();
  const dbName = `billing_bench_${randomBytes(5).toString("hex")}`;
  const databaseUrl = withDatabase(env.BENCH_DATABASE_URL, dbName);
  await migrateDatabase(databaseUrl);
  const database = createDb(databaseUrl, { max: 20 });
  const publicUrl = "http://127.0.0.1:9";
  const engineEnv = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: env.BENCH_REDIS_URL,
    GATEWAY_BASE_URL: sim.url,
    GATEWAY_LEGACY_URL: sim.url,
    GATEWAY_API_KEY: sim.apiKey,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    TOKEN_ENCRYPTION_KEY_ID: VAULT_KEY_ID,
    QUEUE_PREFIX: `bench_${randomBytes(4).toString("hex")}`,
    LOG_LEVEL: "silent",
  };
  const config = loadConfig(engineEnv);
  // What each worker process reads with loadConfig: this run's database, queues, gateway and key.
  const workerEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...engineEnv,
    NODE_ENV: "production",
    BILLING_CLOCK: "system",
    PUBLIC_URL: publicUrl,
    CHARGE_CONCURRENCY: String(env.BENCH_CONCURRENCY),
    CHARGE_RATE_PER_SECOND: String(env.BENCH_RATE),
  };
  // Refuse before enrolling rather than after: the processes would stop on the same error.
  if (env.BENCH_WORKERS !== undefined) loadConfig(workerEnv);
  const queues = createQueueSystem({ redisUrl: env.BENCH_REDIS_URL, prefix: config.QUEUE_PREFIX });
  const ctx: EngineContext = {
    config,
    db: database.db,
    clock: systemClock,
    gateway: createGatewayClient({ baseUrl: sim.url, legacyUrl: sim.url, apiKey: sim.apiKey }),
    queues,
    vault: vaultFromConfig(config),
    logger: silentLogger,
    dunning: DEFAULT_DUNNING_POLICY,
    publicUrl,
  };
  let workerProcesses: WorkerProcess[] = [];

  try {
    process.stdout.write(`enrolling ${n} subscriptions through the simulator's checkout…\n`);
    const setupStart = performance.now();
    const plan = await createPlan(ctx, {
      name: "Bench",
      amount: "49.00",
      currency: "QAR",
      interval: "month",
    });
    const indexes = Array.from({ length: n }, (_, i) => i);
    await inBatches(indexes, 16, async (i) => {
      const { customer } = await createCustomer(ctx, { email: `bench-${i}@example.com`, name: `Bench ${i}` });
      const enrolment = await enroll(ctx, { customerId: customer.id, planId: plan.id, actor: "bench" });
      const paid = await fetch(`${sim.url}/_sim/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          checkout_url: enrolment.checkoutUrl,
          card_number: "4111111111111111",
          expiry: "12/30",
          cvv: "123",
          name: "Bench",
        }),
      });
      if (!paid.ok) throw new Error(`checkout ${i} failed: ${await paid.text()}`);
      const applied = await applyGatewayCallback(ctx, {
        source: "webhook",
        params: { orderId: enrolment.enrollmentId },
      });
      if (applied.outcome !== "completed") throw new Error(`enrolment ${i} ended ${applied.outcome}`);
    });
    const setupSeconds = (performance.now() - setupStart) / 1000;

    let workersLine: string;
    let stopWorkers: () => Promise<string>;
    if (env.BENCH_WORKERS === undefined) {
      let peakRss = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }, 50);
      const worker = startChargeWorker(ctx, {
        concurrency: env.BENCH_CONCURRENCY,
        ratePerSecond: env.BENCH_RATE,
      });
      workersLine = "1, in this process (BENCH_WORKERS unset)";
      stopWorkers = async () => {
        clearInterval(sampler);
        await worker.close();
        return `peak RSS (worker):    ${mib(peakRss)}`;
      };
    } else {
      const k = env.BENCH_WORKERS;
      const bootStart = performance.now();
      workerProcesses = startWorkerProcesses(k, workerEnv);
      const started = workerProcesses;
      await waitForWorkers(queues.queue(QUEUE_NAMES.charges), started);
      workersLine = `${k} process${k === 1 ? "" : "es"} (ready in ${((performance.now() - bootStart) / 1000).toFixed(1)} s)`;
      stopWorkers = async () => {
        // VmHWM before SIGTERM: once a process has exited its /proc entry is gone.
        const peaks = await Promise.all(started.map((w) => peakRssOf(w.child.pid)));
        const exits = await stopWorkerProcesses(started);
        const unclean = exits.filter((exit) => exit.code !== 0);
        if (unclean.length > 0) {
          process.stderr.write(
            `${unclean.length} charge worker process(es) did not exit cleanly after SIGTERM\n`,
          );
          process.exitCode = 1;
        }
        const known = peaks.filter((peak): peak is number => peak !== undefined);
        if (known.length < peaks.length) return "peak RSS (workers):   unknown (no /proc/<pid>/status)";
        const max = Math.max(...known);
        const sum = known.reduce((a, b) => a + b, 0);
        return `peak RSS (workers):   max ${mib(max)}, sum ${mib(sum)} (${known.map((p) => (p / 1024 / 1024).toFixed(0)).join(", ")})`;
      };
    }
    const start = performance.now();
    let paidCount = 0;
    while (paidCount < n) {
      if (performance.now() - start > DEADLINE_MS) throw new Error(`only ${paidCount} of ${n} paid in time`);
      await runBillingTick(ctx);
      const [row] = await ctx.db.select({ paid: count() }).from(charges).where(eq(charges.status, "paid"));
      paidCount = row?.paid ?? 0;
      if (paidCount < n) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - start) / 1000;
    const rssLine = await stopWorkers();

    const ledger = (await (await fetch(`${sim.url}/_sim/ledger`)).json()) as {
      payments: { operation: string; status: string }[];
    };
    const collected = ledger.payments.filter(
      (p) => p.operation === "GetnewPayment" && p.status === "SUCCESS",
    );
    process.stdout.write(
      [
        `subscriptions:        ${n} (enrolled in ${setupSeconds.toFixed(1)} s)`,
        `charge workers:       ${workersLine}`,
        `charge concurrency:   ${env.BENCH_CONCURRENCY}${env.BENCH_WORKERS === undefined ? "" : " per worker"}`,
        `charges paid:         ${paidCount} in ${seconds.toFixed(2)} s`,
        `charges per second:   ${(paidCount / seconds).toFixed(0)}`,
        rssLine,
        `gateway collections:  ${collected.length} (exactly once: ${collected.length === n ? "yes" : "NO"})`,
        "",
      ].join("\n"),
    );
    if (collected.length !== n) process.exitCode = 1;
  } finally {
    // Before the database is dropped under them; a no-op for processes already stopped.
    await stopWorkerProcesses(workerProcesses);
    await queues.obliterate().catch(() => undefined);
    await queues.close();
    await database.close();
    const admin = postgres(env.BENCH_DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin`drop database if exists ${admin(dbName)} with (force)`;
    await admin.end();
    sim.child.kill("SIGTERM");
    await once(sim.child, "exit");
  }
}

await main();
