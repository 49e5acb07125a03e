/**
 * One scenario's world, built fresh and torn down after: a new PostgreSQL database (dropped at the
 * end), a unique Redis QUEUE_PREFIX (its keys deleted at the end), the gateway simulator in its own
 * process, and the engine as separate supervised processes (the scheduler, two charge workers, the
 * invoice worker) plus an engine context in this process for seeding, reading and operator actions.
 * Everything listens on and talks to loopback only.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { Redis } from "ioredis";
import postgres from "postgres";
import { loadConfig } from "../../src/config/index.js";
import type { EngineContext } from "../../src/context/index.js";
import { createDb, migrateDatabase } from "../../src/db/index.js";
import { withDatabase } from "../../src/db/url.js";
import { createQueueSystem, QUEUE_NAMES, type QueueSystem } from "../../src/queue/index.js";
import { type SimulatorProcess, startSimulatorProcess, waitForWorkers } from "../bench/processes.js";
import { runnerContext } from "../bench/runner-context.js";
import { seedSubscriptions } from "../bench/seed.js";
import { Supervised } from "./supervisor.js";

export interface HarnessOptions {
  readonly name: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly logDir: string;
  /** Engine settings this scenario changes (every process and the in-process context). */
  readonly engineEnv?: Readonly<Record<string, string>>;
  /** Settings only the charge workers get at their first start (e.g. a wrong API key). */
  readonly chargeWorkerEnv?: Readonly<Record<string, string>>;
  /** Keep the simulator's state in a file, as a gateway that survives restarts would. */
  readonly simulatorStateFile?: boolean;
}

/**
 * Engine settings of every scenario: a tick every second, a short gateway timeout so that the
 * quiet period (2 × timeout + 30 s) is as short as the engine allows, small batches and few calls
 * in flight so that a run lasts long enough to be hit mid-way, quick redispatch and late checks.
 */
const ENGINE_DEFAULTS = {
  BILLING_TICK_SECONDS: "1",
  GATEWAY_TIMEOUT_MS: "1000",
  CHARGE_BATCH_SIZE: "10",
  CHARGE_CONCURRENCY: "2",
  CHARGE_MAX_IN_FLIGHT: "4",
  CHARGE_REDISPATCH_AFTER_SECONDS: "5",
  QUEUE_BACKOFF_MS: "500",
  LATE_PAYMENT_FIRST_CHECK_SECONDS: "2",
  LATE_PAYMENT_MAX_CHECK_INTERVAL_SECONDS: "5",
  WORKER_CONNECTION_GRACE_MS: "5000",
  SHUTDOWN_TIMEOUT_MS: "5000",
  LOG_LEVEL: "warn",
} as const;

/** How long the engine processes may take to boot (tsx, migration check, connections). */
const READY_MS = 90_000;
const SIM_STOP_MS = 10_000;

export class Harness {
  readonly processes = new Map<string, Supervised>();
  private constructor(
    readonly options: HarnessOptions,
    readonly dbName: string,
    readonly sql: postgres.Sql,
    readonly admin: postgres.Sql,
    readonly redis: Redis,
    readonly queues: QueueSystem,
    readonly ctx: EngineContext,
    readonly engineEnv: NodeJS.ProcessEnv,
    public sim: SimulatorProcess,
    private readonly closeDb: () => Promise<void>,
  ) {}

  static async create(options: HarnessOptions): Promise<Harness> {
    const dbName = `billing_chaos_${randomBytes(5).toString("hex")}`;
    const databaseUrl = withDatabase(options.databaseUrl, dbName);
    const stateFile = join(options.logDir, `${options.name}.gateway-state.json`);
    const sim = await startSimulatorProcess(
      options.simulatorStateFile ? { GATEWAY_SIM_STATE_FILE: stateFile } : {},
    );
    try {
      await migrateDatabase(databaseUrl);
    } catch (error) {
      await stopSimulator(sim);
      throw error;
    }
    const engineEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...ENGINE_DEFAULTS,
      ...options.engineEnv,
      DATABASE_URL: databaseUrl,
      REDIS_URL: options.redisUrl,
      QUEUE_PREFIX: `chaos_${randomBytes(4).toString("hex")}`,
      GATEWAY_BASE_URL: sim.url,
      GATEWAY_LEGACY_URL: sim.url,
      GATEWAY_API_KEY: sim.apiKey,
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      TOKEN_ENCRYPTION_KEY_ID: "chaos",
      NODE_ENV: "production",
      BILLING_CLOCK: "system",
      PUBLIC_URL: "http://127.0.0.1:9",
    };
    const config = loadConfig(engineEnv);
    const database = createDb(databaseUrl, { max: 5, applicationName: "chaos-runner" });
    const queues = createQueueSystem({ redisUrl: options.redisUrl, prefix: config.QUEUE_PREFIX });
    const ctx = runnerContext({ config, db: database.db, queues, sim });
    const admin = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
    const harness = new Harness(
      options,
      dbName,
      database.sql,
      admin,
      new Redis(options.redisUrl),
      queues,
      ctx,
      engineEnv,
      sim,
      () => database.close(),
    );
    // A scenario whose engine never gets ready has no harness to close: its processes, keys,
    // database and simulator are removed here, or they outlive the run.
    try {
      harness.start("scheduler", "workers/scheduler.ts");
      harness.start("charge-1", "workers/charge-worker.ts", options.chargeWorkerEnv);
      harness.start("charge-2", "workers/charge-worker.ts", options.chargeWorkerEnv);
      harness.start("invoice", "workers/invoice-worker.ts");
      await waitForWorkers(
        queues.queue(QUEUE_NAMES.charges),
        2,
        [...harness.processes.values()].map((p) => p.process),
        READY_MS,
      );
    } catch (error) {
      await harness.close().catch(() => undefined);
      throw error;
    }
    return harness;
  }

  private seeded = 0;

  /** Periods due in this scenario: one per seeded subscription. */
  get due(): number {
    return this.seeded;
  }

  /** Seeds `n` subscriptions, all due now, with tokens the simulator mints (scripts/bench/seed.ts). */
  async seed(n: number): Promise<void> {
    await seedSubscriptions(this.ctx, this.sim.url, n, n);
    this.seeded = n;
  }

  chargeWorkers(): Supervised[] {
    return [...this.processes.values()].filter((p) => p.name.startsWith("charge-"));
  }

  /** The environment a charge worker gets: the engine's, with `overrides`. */
  workerEnv(overrides: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
    return { ...this.engineEnv, ...overrides };
  }

  async paidCount(): Promise<number> {
    const [row] = await this.sql<
      { paid: string }[]
    >`select count(*) as paid from charges where status = 'paid'`;
    return Number(row?.paid ?? 0);
  }

  /** POST to the simulator's admin routes; throws on a refusal, naming the route. */
  async simPost(path: string, body: unknown): Promise<unknown> {
    const reply = await fetch(`${this.sim.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!reply.ok) throw new Error(`POST ${path} answered ${reply.status}: ${await reply.text()}`);
    return reply.json();
  }

  /** Stops the simulator and starts a new one on the same port and key, with no state file. */
  async restartSimulatorForgetting(): Promise<void> {
    const port = new URL(this.sim.url).port;
    await stopSimulator(this.sim);
    this.sim = await startSimulatorProcess({ GATEWAY_SIM_PORT: port, GATEWAY_SIM_API_KEY: this.sim.apiKey });
  }

  async close(): Promise<void> {
    await Promise.all([...this.processes.values()].map((p) => p.stop()));
    await this.queues.obliterate().catch(() => undefined);
    await this.queues.close();
    let cursor = "0";
    do {
      const [next, keys] = await this.redis.scan(
        cursor,
        "MATCH",
        `${this.engineEnv.QUEUE_PREFIX}:*`,
        "COUNT",
        1000,
      );
      if (keys.length > 0) await this.redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
    this.redis.disconnect();
    await this.closeDb();
    await this.admin`drop database if exists ${this.admin(this.dbName)} with (force)`;
    await this.admin.end();
    await stopSimulator(this.sim);
  }

  private start(name: string, script: string, extra: Readonly<Record<string, string>> = {}): void {
    const log = join(this.options.logDir, `${this.options.name}.${name}.log`);
    this.processes.set(name, new Supervised(name, script, this.workerEnv(extra), log));
  }
}

/** SIGTERM, then SIGKILL past SIM_STOP_MS; resolves once the simulator has exited. */
async function stopSimulator(sim: SimulatorProcess): Promise<void> {
  sim.child.kill("SIGTERM");
  if (sim.child.exitCode !== null || sim.child.signalCode !== null) return;
  const timer = setTimeout(() => sim.child.kill("SIGKILL"), SIM_STOP_MS);
  await new Promise((resolve) => sim.child.once("exit", resolve));
  clearTimeout(timer);
}
