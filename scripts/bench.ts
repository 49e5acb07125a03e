/**
 * Billing benchmark (`npm run bench`): BENCH_DUE of BENCH_SUBSCRIPTIONS subscriptions fall due at
 * the same moment (the rest next month); the billing tick bills them and hands them out in batch
 * jobs, and charge workers collect them through GetnewPayment against the simulator, which runs in
 * a child process so that it does not share this event loop. Seeding mints the tokens in the
 * simulator (POST /_sim/tokens) and writes the subscriptions with `billing import`'s service.
 *
 * Printed for the charging window (first tick to the last charge paid): charges per second; the
 * same session's `pgbench -N` tps, the ratio, and what one pgbench transaction costs PostgreSQL;
 * CPU ms per charge of the whole machine and of each process group (engine = this process, which
 * ticks, + charge workers, also each alone; simulator; PostgreSQL, also in pgbench transactions)
 * from /proc; commits per charge (pg_stat_database) and SQL statements per charge
 * (pg_stat_statements, when the server loads it; top level only); Redis commands per charge (INFO
 * commandstats; Redis queue only); WAL bytes and full-page images per charge (pg_stat_wal, the
 * whole server's); the workers' peak RSS; the first tick's duration and an empty tick's (median of
 * 9); and exactly-once checks (scripts/bench/exactly-once.ts). The seeded database is vacuumed
 * before the window, as autovacuum keeps a table that grew over time.
 *
 * After that window, with every figure above already read, BENCH_LINK_SUBSCRIPTIONS customers
 * subscribe by payment link and each link is paid as a browser pays it: our link (303) → the
 * simulator's hosted checkout paid with the Qatar debit card → the return URL, confirmed by
 * CheckStatus; then their own exactly-once checks (scripts/bench/links.ts).
 *
 * After the links, BENCH_USAGE_SUBSCRIPTIONS customers subscribe by link to a weekly autosave plan
 * that prices a `sum` meter with a graduated tiered price; their first period is billed and paid by
 * link, their usage is sent through POST /v1/usage (every event twice, some a third time with a
 * moved timestamp), the phase's billing clock (and the simulator's) moves past the period's end
 * plus USAGE_GRACE_HOURS, two billing ticks bill the usage and each usage charge's link is paid;
 * then their own exactly-once checks, the amounts against the bench's own pricing of the events
 * (scripts/bench/usage.ts).
 *
 *   BENCH_SUBSCRIPTIONS   subscriptions seeded (default 1000, at most 1,000,000)
 *   BENCH_DUE             how many of them are due now (default all)
 *   BENCH_LINK_SUBSCRIPTIONS  further subscriptions that pay by link, paid link → checkout → return
 *                         after the charging window and checked exactly once (default 20; 0 skips)
 *   BENCH_USAGE_SUBSCRIPTIONS  further subscriptions by link with usage-priced charges, billed past
 *                         the grace, paid by link after the link phase and checked exactly once,
 *                         amounts included (default 20; 0 skips)
 *   BENCH_QUEUE           redis (default) or postgres: where BullMQ keeps its jobs
 *   BENCH_WORKERS         charge worker processes (default 1; 0: one worker in this process)
 *   BENCH_TICK_THREAD     1 (with BENCH_WORKERS=0): the charging window's ticks run on a worker thread
 *                         of this process, as `npm start` runs them beside its worker (default 0)
 *   BENCH_CONCURRENCY     batch jobs at once per worker (CHARGE_CONCURRENCY, default 8)
 *   BENCH_BATCH           charges per job (CHARGE_BATCH_SIZE, default 200)
 *   BENCH_IN_FLIGHT       gateway calls open at once per worker (CHARGE_MAX_IN_FLIGHT, default 256)
 *   BENCH_RATE            gateway calls started per second per worker (default 100000)
 *   BENCH_GATEWAY_RATE    the merchant's rate limit in the simulator (429 past it) and the budget all
 *                         workers share (GATEWAY_RATE_PER_SECOND); checked held (default: none)
 *   BENCH_LATENCY_MS      added latency of every GetnewPayment in the simulator (default 0)
 *   BENCH_PGBENCH_SECONDS length of the pgbench baseline, run right before and right after the
 *                         charging window on the same server (default 15; 0 skips it)
 *   BENCH_TICK_MS         how often the billing tick runs during the run (default 5000; the paid
 *                         count is polled every 250 ms)
 *   BENCH_JSON            1: also print every figure as one JSON line
 *   BENCH_KEEP_DB         1: keep the run's database afterwards (its name is printed), to inspect plans
 *   BENCH_CPU_PROF_DIR    where worker processes write a CPU profile (node --cpu-prof) when they stop
 *   BENCH_REDIS_URL       Redis (default: a redis-server of the bench's own, so its commands are counted alone)
 *   BENCH_DATABASE_URL    maintenance database of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { Redis } from "ioredis";
import postgres from "postgres";
import { z } from "zod";
import { startChargeWorker } from "../src/charging/index.js";
import { ControllableClock, systemClock } from "../src/clock/index.js";
import { loadConfig } from "../src/config/index.js";
import { createDb, migrateDatabase } from "../src/db/index.js";
import { withDatabase } from "../src/db/url.js";
import { createQueueSystem, QUEUE_NAMES } from "../src/queue/index.js";
import { startTickThread } from "../src/runtime/index.js";
import { runBillingTick, startStatusCheckWorker } from "../src/scheduler/index.js";
import {
  cpuSince,
  flushStatistics,
  machineBusyMs,
  pgCounters,
  postgresCpu,
  processCpuMs,
  redisCommands,
  walCounters,
} from "./bench/counters.js";
import { type Check, exactlyOnce } from "./bench/exactly-once.js";
import { gatewayRate, limitGateway } from "./bench/gateway-rate.js";
import { type LinkRun, linkChecks, payByLink } from "./bench/links.js";
import { pgbenchRun } from "./bench/pgbench.js";
import {
  startSimulatorProcess,
  startWorkerProcess,
  stopWorkerProcesses,
  type WorkerProcess,
  waitForWorkers,
} from "./bench/processes.js";
import { startBenchRedis } from "./bench/redis-server.js";
import { runnerContext } from "./bench/runner-context.js";
import { seedSubscriptions } from "./bench/seed.js";
import { payUsage, type UsageRun, usageChecks } from "./bench/usage.js";

const env = z
  .object({
    BENCH_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    BENCH_DUE: z.coerce.number().int().min(1).optional(),
    BENCH_LINK_SUBSCRIPTIONS: z.coerce.number().int().min(0).max(100_000).default(20),
    BENCH_USAGE_SUBSCRIPTIONS: z.coerce.number().int().min(0).max(100_000).default(20),
    BENCH_QUEUE: z.enum(["redis", "postgres"]).default("redis"),
    BENCH_WORKERS: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(0).max(32).default(1),
    ),
    BENCH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(8),
    BENCH_BATCH: z.coerce.number().int().min(1).max(1000).default(200),
    BENCH_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).default(256),
    BENCH_RATE: z.coerce.number().int().min(1).default(100_000),
    BENCH_GATEWAY_RATE: z.coerce.number().int().min(1).max(100_000).optional(),
    BENCH_LATENCY_MS: z.coerce.number().int().min(0).max(10_000).default(0),
    BENCH_PGBENCH_SECONDS: z.coerce.number().int().min(0).max(600).default(15),
    BENCH_TICK_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    BENCH_JSON: z.enum(["0", "1"]).default("0"),
    BENCH_KEEP_DB: z.enum(["0", "1"]).default("0"),
    BENCH_TICK_THREAD: z.enum(["0", "1"]).default("0"),
    BENCH_CPU_PROF_DIR: z.string().optional(),
    BENCH_REDIS_URL: z.string().optional(),
    BENCH_DATABASE_URL: z.string().default("postgres://postgres@127.0.0.1:5432/postgres"),
  })
  .refine((e) => e.BENCH_TICK_THREAD === "0" || e.BENCH_WORKERS === 0, {
    message: "BENCH_TICK_THREAD=1 needs BENCH_WORKERS=0 (the thread shares this process with its worker)",
    path: ["BENCH_TICK_THREAD"],
  })
  .parse(process.env);

const DEADLINE_MS = 60 * 60_000;
/** How long K worker processes may take to boot (tsx, migration check, connections) on a busy machine. */
const WORKER_READY_MS = 120_000;
/** Past the workers' own SHUTDOWN_TIMEOUT_MS (30 s by default), a worker that has not exited is killed. */
const WORKER_STOP_MS = 40_000;
/** The token vault's key id, in this process and in the worker processes alike. */
const VAULT_KEY_ID = "bench";
/** Empty ticks timed after the run (their median is printed). */
const EMPTY_TICKS = 9;

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

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const kib = (bytes: number | undefined) => (bytes === undefined ? undefined : bytes / 1024);

async function main() {
  const n = env.BENCH_SUBSCRIPTIONS;
  const due = Math.min(env.BENCH_DUE ?? n, n);
  const pgbench = () =>
    env.BENCH_PGBENCH_SECONDS > 0
      ? pgbenchRun(env.BENCH_DATABASE_URL, env.BENCH_PGBENCH_SECONDS)
      : Promise.resolve(undefined);
  const ownRedis =
    env.BENCH_QUEUE === "redis" && env.BENCH_REDIS_URL === undefined ? await startBenchRedis() : undefined;
  const redisUrl = env.BENCH_REDIS_URL ?? ownRedis?.url ?? "";
  const sim = await startSimulatorProcess();
  const dbName = `billing_bench_${randomBytes(5).toString("hex")}`;
  const databaseUrl = withDatabase(env.BENCH_DATABASE_URL, dbName);
  await migrateDatabase(databaseUrl);
  const database = createDb(databaseUrl, { max: 20 });
  const admin = postgres(env.BENCH_DATABASE_URL, { max: 1, onnotice: () => {} });
  const redis = env.BENCH_QUEUE === "redis" ? new Redis(redisUrl) : undefined;
  const publicUrl = "http://127.0.0.1:9";
  const engineEnv = {
    DATABASE_URL: databaseUrl,
    ...(env.BENCH_QUEUE === "redis" ? { REDIS_URL: redisUrl } : {}),
    GATEWAY_BASE_URL: sim.url,
    GATEWAY_LEGACY_URL: sim.url,
    GATEWAY_API_KEY: sim.apiKey,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    TOKEN_ENCRYPTION_KEY_ID: VAULT_KEY_ID,
    QUEUE_PREFIX: `bench_${randomBytes(4).toString("hex")}`,
    CHARGE_CONCURRENCY: String(env.BENCH_CONCURRENCY),
    CHARGE_BATCH_SIZE: String(env.BENCH_BATCH),
    CHARGE_MAX_IN_FLIGHT: String(env.BENCH_IN_FLIGHT),
    CHARGE_RATE_PER_SECOND: String(env.BENCH_RATE),
    ...(env.BENCH_GATEWAY_RATE === undefined
      ? {}
      : { GATEWAY_RATE_PER_SECOND: String(env.BENCH_GATEWAY_RATE) }),
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
  };
  if (env.BENCH_QUEUE === "postgres") delete workerEnv.REDIS_URL;
  // Refuse before seeding rather than after: the processes would stop on the same error.
  if (env.BENCH_WORKERS > 0) loadConfig(workerEnv);
  const queueSystem = () =>
    createQueueSystem(
      env.BENCH_QUEUE === "redis"
        ? { redisUrl, prefix: config.QUEUE_PREFIX }
        : { databaseUrl, prefix: config.QUEUE_PREFIX },
    );
  const queues = queueSystem();
  const ctx = runnerContext({ config, db: database.db, queues, sim, publicUrl });
  let workerProcesses: WorkerProcess[] = [];
  let databaseOpen = true;
  // Its own engine (pool, queues) on its own event loop; its CPU counts in this process's.
  const tickThread =
    env.BENCH_TICK_THREAD === "1" ? startTickThread({ config, logger: ctx.logger }) : undefined;
  const tick = () => (tickThread ? tickThread.run() : runBillingTick(ctx));

  try {
    // The thread starts with its first tick (its own engine, its modules loaded and compiled):
    // once per process, so here, on the empty database, not in the charging window.
    if (tickThread) await tickThread.run();
    process.stdout.write(`seeding ${n} subscriptions (${due} due now)…\n`);
    const setupStart = performance.now();
    await seedSubscriptions(ctx, sim.url, n, due);
    const setupSeconds = (performance.now() - setupStart) / 1000;
    // Tables that grew over months are kept by autovacuum; a bulk load is not yet, and its first
    // vacuum (every seeded page, logged whole after a checkpoint) must not land in the window.
    const vacuumStart = performance.now();
    await ctx.db.$client.unsafe("vacuum (analyze)");
    const vacuumSeconds = (performance.now() - vacuumStart) / 1000;
    await flushStatistics(ctx.db.$client);
    if (env.BENCH_LATENCY_MS > 0) {
      await fetch(`${sim.url}/_sim/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          operation: "GetnewPayment",
          kind: "latency",
          latency_ms: env.BENCH_LATENCY_MS,
        }),
      });
    }

    if (env.BENCH_GATEWAY_RATE !== undefined) await limitGateway(sim.url, sim.apiKey, env.BENCH_GATEWAY_RATE);

    let workersLine: string;
    let stopWorkers: () => Promise<string>;
    if (env.BENCH_WORKERS === 0) {
      let peakRss = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }, 50);
      const worker = startChargeWorker(ctx, {
        concurrency: env.BENCH_CONCURRENCY,
        ratePerSecond: env.BENCH_RATE,
      });
      workersLine = `1, in this process (BENCH_WORKERS=0)${tickThread ? "; ticks on a thread of it" : ""}`;
      stopWorkers = async () => {
        clearInterval(sampler);
        await worker.close();
        return `peak RSS (worker):    ${mib(peakRss)}`;
      };
    } else {
      const k = env.BENCH_WORKERS;
      const bootStart = performance.now();
      const profile = env.BENCH_CPU_PROF_DIR
        ? ["--cpu-prof", `--cpu-prof-dir=${env.BENCH_CPU_PROF_DIR}`]
        : [];
      workerProcesses = Array.from({ length: k }, () =>
        startWorkerProcess("workers/charge-worker.ts", workerEnv, { nodeArgs: profile }),
      );
      const started = workerProcesses;
      await waitForWorkers(queues.queue(QUEUE_NAMES.charges), k, started, WORKER_READY_MS);
      workersLine = `${k} process${k === 1 ? "" : "es"} (ready in ${((performance.now() - bootStart) / 1000).toFixed(1)} s)`;
      stopWorkers = async () => {
        // VmHWM before SIGTERM: once a process has exited its /proc entry is gone.
        const peaks = await Promise.all(started.map((w) => peakRssOf(w.child.pid)));
        const exits = await stopWorkerProcesses(started, WORKER_STOP_MS);
        if (exits.some((exit) => exit.code !== 0)) {
          process.stderr.write("a charge worker process did not exit cleanly after SIGTERM\n");
          process.exitCode = 1;
        }
        const known = peaks.filter((peak): peak is number => peak !== undefined);
        if (known.length < peaks.length) return "peak RSS (workers):   unknown (no /proc/<pid>/status)";
        return `peak RSS (workers):   max ${mib(Math.max(...known))} (${known.map((p) => (p / 1024 / 1024).toFixed(0)).join(", ")} MiB)`;
      };
    }

    // Right before the window, on the same server, once everything is seeded and started.
    const pgbenchFirst = await pgbench();
    const workerCpu = () =>
      Promise.all(workerProcesses.map((w) => processCpuMs(w.child.pid))).then((all) =>
        all.reduce<number>((sum, ms) => sum + (ms ?? 0), 0),
      );
    const before = {
      machine: await machineBusyMs(),
      self: process.cpuUsage(),
      workers: await workerCpu(),
      sim: await processCpuMs(sim.child.pid),
      postgres: await postgresCpu(dbName),
      pg: await pgCounters(admin, dbName),
      wal: await walCounters(admin),
      redis: await redisCommands(redis),
    };
    const start = performance.now();
    // The status checks the ticks hand out run beside them, as in the scheduler's process.
    startStatusCheckWorker(ctx);
    let firstTickMs = 0;
    let paidCount = 0;
    let ticks = 0;
    let lastTick = Number.NEGATIVE_INFINITY;
    while (paidCount < due) {
      if (performance.now() - start > DEADLINE_MS)
        throw new Error(`only ${paidCount} of ${due} paid in time`);
      // A tick every BENCH_TICK_MS, as the scheduler would run them (every one costs statements).
      const tickStart = performance.now();
      if (tickStart - lastTick >= env.BENCH_TICK_MS) {
        await tick();
        lastTick = tickStart;
        if (ticks++ === 0) firstTickMs = performance.now() - tickStart;
      }
      const [row] = await database.sql<
        { paid: string }[]
      >`select count(*) as paid from charges where status = 'paid'`;
      paidCount = Number(row?.paid ?? 0);
      if (paidCount < due) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const seconds = (performance.now() - start) / 1000;
    // Before the link and usage phases, which call the gateway too.
    const budget =
      env.BENCH_GATEWAY_RATE === undefined
        ? undefined
        : await gatewayRate(sim.url, sim.apiKey, env.BENCH_GATEWAY_RATE, seconds);
    const workerCpuAfter = await workerCpu();
    // Before the workers stop: their backends' CPU leaves /proc with them.
    const postgresAfter = await postgresCpu(dbName);
    const rssLine = await stopWorkers();
    // Several empty ticks, as the scheduler runs them every few seconds: one alone also times
    // opening the pool's connections, which a running scheduler keeps open.
    const emptyTicks: number[] = [];
    let empty = await runBillingTick(ctx);
    for (let i = 0; i < EMPTY_TICKS; i += 1) {
      const emptyTickStart = performance.now();
      empty = await runBillingTick(ctx);
      emptyTicks.push(performance.now() - emptyTickStart);
    }
    const emptyTickMs = emptyTicks.sort((a, b) => a - b)[Math.floor(EMPTY_TICKS / 2)]!;
    const self = process.cpuUsage(before.self);
    const cpuAfter = {
      machine: await machineBusyMs(),
      sim: await processCpuMs(sim.child.pid),
    };
    // Closing the pools makes every backend flush its statistics before they are read.
    await queues.close();
    await database.close();
    databaseOpen = false;
    const after = {
      ...cpuAfter,
      pg: await pgCounters(admin, dbName),
      wal: await walCounters(admin),
      redis: await redisCommands(redis),
    };
    const pgbenchLast = await pgbench();
    const pgbenchBefore = pgbenchFirst?.tps;
    const pgbenchAfter = pgbenchLast?.tps;
    const pgbenchCpu = [pgbenchFirst, pgbenchLast].flatMap((r) =>
      r?.postgresCpuMsPerTransaction === undefined ? [] : [r.postgresCpuMsPerTransaction],
    );
    // What one pgbench transaction costs PostgreSQL here, to read its CPU per charge against.
    const pgbenchCpuMs =
      pgbenchCpu.length > 0 ? pgbenchCpu.reduce((a, b) => a + b, 0) / pgbenchCpu.length : undefined;
    // The ratio is to the mean of the two: the machine may have changed during the window.
    const baseline =
      pgbenchBefore === undefined || pgbenchAfter === undefined
        ? undefined
        : (pgbenchBefore + pgbenchAfter) / 2;

    const perCharge = (a: number | undefined, b: number | undefined, digits = 2) =>
      a === undefined || b === undefined ? "n/a" : ((a - b) / paidCount).toFixed(digits);
    // This process runs the ticks (and, with BENCH_WORKERS=0, the worker); the rest is the workers'.
    const tickCpuMs = (self.user + self.system) / 1000;
    const workersCpuMs = workerCpuAfter - before.workers;
    const engineCpuMs = tickCpuMs + workersCpuMs;
    const checkDb = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    const checks: Check[] = [];
    let links: LinkRun | undefined;
    let usage: UsageRun | undefined;
    try {
      // The card charges' checks first, on the database as the charging window left it.
      checks.push(...(await exactlyOnce(sim.url, checkDb, due)), ...(budget?.checks ?? []));
      if (env.BENCH_LINK_SUBSCRIPTIONS > 0) {
        process.stdout.write(
          `paying ${env.BENCH_LINK_SUBSCRIPTIONS} subscriptions by link (link → checkout → return)…\n`,
        );
        // Its own pools: the window's were closed to read their statistics.
        const linkDatabase = createDb(databaseUrl, { max: 10 });
        const linkQueues = queueSystem();
        try {
          links = await payByLink(
            { ...ctx, db: linkDatabase.db, queues: linkQueues },
            linkDatabase.sql,
            sim.url,
            env.BENCH_LINK_SUBSCRIPTIONS,
            { concurrency: env.BENCH_CONCURRENCY, ratePerSecond: env.BENCH_RATE },
          );
        } finally {
          await linkQueues.close();
          await linkDatabase.close();
        }
        checks.push(...(await linkChecks(sim.url, checkDb, links.chargeIds)));
      }
      if (env.BENCH_USAGE_SUBSCRIPTIONS > 0) {
        process.stdout.write(
          `billing the usage of ${env.BENCH_USAGE_SUBSCRIPTIONS} subscriptions (POST /v1/usage → period end + grace → link paid)…\n`,
        );
        const usageDatabase = createDb(databaseUrl, { max: 10 });
        const usageQueues = queueSystem();
        try {
          usage = await payUsage(
            {
              ...ctx,
              db: usageDatabase.db,
              queues: usageQueues,
              // The phase's own billing clock: it moves it past the period's end and the grace.
              clock: new ControllableClock(systemClock.now(), { running: true }),
            },
            usageDatabase.sql,
            sim.url,
            env.BENCH_USAGE_SUBSCRIPTIONS,
            { concurrency: env.BENCH_CONCURRENCY, ratePerSecond: env.BENCH_RATE },
          );
        } finally {
          await usageQueues.close();
          await usageDatabase.close();
        }
        checks.push(...(await usageChecks(sim.url, checkDb, usage)));
      }
    } finally {
      await checkDb.end();
    }
    const rate = paidCount / seconds;
    const figures = {
      subscriptions: n,
      due,
      queue: env.BENCH_QUEUE,
      workers: env.BENCH_WORKERS,
      concurrency: env.BENCH_CONCURRENCY,
      batch: env.BENCH_BATCH,
      in_flight: env.BENCH_IN_FLIGHT,
      latency_ms: env.BENCH_LATENCY_MS,
      seed_seconds: Number(setupSeconds.toFixed(1)),
      vacuum_seconds: Number(vacuumSeconds.toFixed(1)),
      seconds: Number(seconds.toFixed(2)),
      charges_per_second: Number(rate.toFixed(0)),
      pgbench_tps: baseline ?? null,
      pgbench_before_tps: pgbenchBefore ?? null,
      pgbench_after_tps: pgbenchAfter ?? null,
      ratio: baseline ? Number((rate / baseline).toFixed(3)) : null,
      machine_cpu_ms: perCharge(after.machine, before.machine),
      engine_cpu_ms: (engineCpuMs / paidCount).toFixed(2),
      engine_tick_cpu_ms: (tickCpuMs / paidCount).toFixed(2),
      engine_workers_cpu_ms: (workersCpuMs / paidCount).toFixed(2),
      simulator_cpu_ms: perCharge(after.sim, before.sim),
      postgres_cpu_ms: perCharge(cpuSince(postgresAfter, before.postgres), 0),
      pgbench_postgres_cpu_ms: pgbenchCpuMs === undefined ? null : Number(pgbenchCpuMs.toFixed(3)),
      statements: perCharge(after.pg.statements, before.pg.statements),
      commits: perCharge(after.pg.commits, before.pg.commits, 3),
      redis_commands: perCharge(after.redis, before.redis),
      wal_kib: perCharge(kib(after.wal?.bytes), kib(before.wal?.bytes), 1),
      wal_full_page_images: perCharge(after.wal?.fullPageImages, before.wal?.fullPageImages),
      first_tick_ms: Math.round(firstTickMs),
      empty_tick_ms: Number(emptyTickMs.toFixed(1)),
      empty_tick_found: empty.chargesCreated + empty.chargesEnqueued,
      link_subscriptions: env.BENCH_LINK_SUBSCRIPTIONS,
      link_pay_seconds: links ? Number(links.paySeconds.toFixed(2)) : null,
      usage_subscriptions: env.BENCH_USAGE_SUBSCRIPTIONS,
      usage_events: usage ? usage.events : null,
      usage_events_sent: usage ? usage.sent : null,
      usage_send_seconds: usage ? Number(usage.sendSeconds.toFixed(2)) : null,
      usage_bill_seconds: usage ? Number(usage.billSeconds.toFixed(2)) : null,
      usage_pay_seconds: usage ? Number(usage.paySeconds.toFixed(2)) : null,
    };
    process.stdout.write(
      [
        `subscriptions:        ${n}, ${due} due (seeded in ${figures.seed_seconds} s, vacuumed in ${figures.vacuum_seconds} s)`,
        `queue:                ${env.BENCH_QUEUE}; charge workers: ${workersLine}`,
        `per worker:           ${env.BENCH_CONCURRENCY} jobs of ${env.BENCH_BATCH} charges, ${env.BENCH_IN_FLIGHT} calls in flight; gateway latency +${env.BENCH_LATENCY_MS} ms`,
        `charges paid:         ${paidCount} in ${seconds.toFixed(2)} s`,
        `charges per second:   ${figures.charges_per_second}`,
        `pgbench -N tps:       ${baseline ? `${pgbenchBefore!.toFixed(0)} before, ${pgbenchAfter!.toFixed(0)} after the window (ratio ${figures.ratio} to their mean)${pgbenchCpuMs === undefined ? "" : `; PostgreSQL CPU ${pgbenchCpuMs.toFixed(3)} ms a transaction`}` : "skipped"}`,
        `CPU ms per charge:    machine ${figures.machine_cpu_ms}, engine ${figures.engine_cpu_ms} (this process ${figures.engine_tick_cpu_ms}, workers ${figures.engine_workers_cpu_ms}), simulator ${figures.simulator_cpu_ms}, postgres ${figures.postgres_cpu_ms}${pgbenchCpuMs === undefined || figures.postgres_cpu_ms === "n/a" ? "" : ` (${(Number(figures.postgres_cpu_ms) / pgbenchCpuMs).toFixed(1)} pgbench transactions)`}`,
        `per charge:           ${figures.statements} statements${after.pg.statements === undefined ? " (pg_stat_statements not loaded)" : ""}, ${figures.commits} commits, ${figures.redis_commands} Redis commands, ${figures.wal_kib} KiB of WAL (${figures.wal_full_page_images} full-page images; the whole server's)`,
        rssLine,
        `ticks:                first ${figures.first_tick_ms} ms (billed and handed out ${due}), empty ${figures.empty_tick_ms} ms (median of ${EMPTY_TICKS} after a first)`,
        ...(budget ? [budget.line] : []),
        links
          ? `link charges:         ${links.chargeIds.length} paid link → checkout → return in ${links.paySeconds.toFixed(2)} s (subscribed in ${links.subscribeSeconds.toFixed(2)} s, links sent in ${links.sendSeconds.toFixed(2)} s; after the window, in none of its figures)`
          : "link charges:         skipped (BENCH_LINK_SUBSCRIPTIONS=0)",
        usage
          ? `usage charges:        ${usage.chargeIds.length} paid link → checkout → return in ${usage.paySeconds.toFixed(2)} s (${usage.events} events sent ${usage.sent} times in ${usage.requests} POST /v1/usage in ${usage.sendSeconds.toFixed(2)} s; billed and links sent in ${usage.billSeconds.toFixed(2)} s past period end + ${usage.graceHours} h; subscribed and first period paid in ${usage.subscribeSeconds.toFixed(2)} s; after the window, in none of its figures)`
          : "usage charges:        skipped (BENCH_USAGE_SUBSCRIPTIONS=0)",
        ...checks.map(
          (check) => `${`${check.name}:`.padEnd(56)} ${check.ok ? "yes" : "NO"} (${check.detail})`,
        ),
        "",
      ].join("\n"),
    );
    if (env.BENCH_JSON === "1") process.stdout.write(`${JSON.stringify({ ...figures, checks })}\n`);
    if (checks.some((check) => !check.ok)) process.exitCode = 1;
  } finally {
    await tickThread?.close();
    // Before the database is dropped under them; a no-op for processes already stopped.
    await stopWorkerProcesses(workerProcesses, WORKER_STOP_MS);
    if (databaseOpen) {
      await queues.obliterate().catch(() => undefined);
      await queues.close();
      await database.close();
    } else if (redis) {
      const keys = await redis.keys(`${config.QUEUE_PREFIX}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    redis?.disconnect();
    if (env.BENCH_KEEP_DB === "1") process.stdout.write(`database kept: ${dbName}\n`);
    else await admin`drop database if exists ${admin(dbName)} with (force)`;
    await admin.end();
    sim.child.kill("SIGTERM");
    await once(sim.child, "exit");
    await ownRedis?.stop();
  }
}

await main();
