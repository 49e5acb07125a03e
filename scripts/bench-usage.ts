/**
 * Usage ingestion benchmark (`npm run bench:usage`): how many usage events a second one engine
 * process takes through POST /v1/usage, and what each costs. An engine is started in this process
 * on a fresh database of the local PostgreSQL (as `npm run bench` does), with BENCH_USAGE_SUBSCRIPTIONS
 * active subscriptions and three meters (sum, max, unique_count); its HTTP server listens on
 * loopback. A load process (scripts/bench/usage-load.ts) builds every batch first, then
 * BENCH_USAGE_CLIENTS loops send BENCH_USAGE_EVENTS events in batches of BENCH_USAGE_BATCH, each loop
 * its next batch as soon as the last is answered; then it sends the first BENCH_USAGE_RESEND batches
 * again, verbatim and with moved timestamps, all of which must come back `duplicate`. After that,
 * BENCH_USAGE_DIRECT events go through the ingestion function itself (no HTTP, no validation), with
 * as many concurrent calls, to show what HTTP and zod cost.
 *
 * Printed per phase: events per second and its ratio to the same run's `pgbench -N` tps (events
 * per pgbench transaction); CPU µs per event of this process (the engine), the load process and
 * PostgreSQL (/proc); statements per request and per event, as the engine's driver sent them
 * (ingestion opens no transaction, so each is a commit); and the checks: every event accepted
 * once, every resent one a duplicate, as many rows and keys as distinct events. Exit 1 when a
 * check fails.
 *
 *   BENCH_USAGE_SUBSCRIPTIONS  subscriptions seeded (default 1000)
 *   BENCH_USAGE_EVENTS         events sent over HTTP (default 200,000)
 *   BENCH_USAGE_BATCH          events per request (default 1000, at most 1000)
 *   BENCH_USAGE_CLIENTS        concurrent requests (default 4)
 *   BENCH_USAGE_RESEND         batches sent again to check deduplication (default 10)
 *   BENCH_USAGE_DIRECT         events through the ingestion function (default 100,000; 0 skips)
 *   BENCH_PGBENCH_SECONDS      length of the pgbench baseline (default 10; 0 skips it)
 *   BENCH_REDIS_URL            Redis for the engine's queues (default redis://127.0.0.1:6379)
 *   BENCH_DATABASE_URL         maintenance database of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { z } from "zod";
import { createApiKey } from "../src/apikeys/index.js";
import { buildServer, createEngine, type Engine } from "../src/app/index.js";
import { loadConfig } from "../src/config/index.js";
import { withDatabase } from "../src/db/url.js";
import { createMeter, ingestUsage, type UsageEventInput } from "../src/usage/index.js";
import { processCpuMs } from "./bench/counters.js";
import { pgbenchRun } from "./bench/pgbench.js";
import type { UsageLoadPlan, UsageLoadResult } from "./bench/usage-load.js";

const env = z
  .object({
    BENCH_USAGE_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    BENCH_USAGE_EVENTS: z.coerce.number().int().min(1).max(100_000_000).default(200_000),
    BENCH_USAGE_BATCH: z.coerce.number().int().min(1).max(1000).default(1000),
    BENCH_USAGE_CLIENTS: z.coerce.number().int().min(1).max(256).default(4),
    BENCH_USAGE_RESEND: z.coerce.number().int().min(0).default(10),
    BENCH_USAGE_DIRECT: z.coerce.number().int().min(0).max(100_000_000).default(100_000),
    BENCH_PGBENCH_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
    BENCH_REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
    BENCH_DATABASE_URL: z.string().default("postgres://postgres@127.0.0.1:5432/postgres"),
  })
  .parse(process.env);

const out = (line = "") => process.stdout.write(`${line}\n`);
const thousands = (n: number) => Math.round(n).toLocaleString("en-US");
const METERS = [
  { code: "api_calls", name: "API calls", aggregation: "sum" },
  { code: "storage", name: "Storage", aggregation: "max" },
  { code: "users", name: "Active users", aggregation: "unique_count" },
] as const;

/** Runs the load process on a plan and reads its one line of result. */
async function runLoad(plan: UsageLoadPlan): Promise<{ result: UsageLoadResult; cpuMs: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), "bench-usage-"));
  const file = path.join(dir, "plan.json");
  await writeFile(file, JSON.stringify(plan));
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "bench", "usage-load.ts");
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, BENCH_USAGE_PLAN: file },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  let cpuMs = 0;
  // The child's CPU is read while it runs: once it has exited its /proc entry is gone.
  const sampler = setInterval(async () => {
    cpuMs = (await processCpuMs(child.pid)) ?? cpuMs;
  }, 100);
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  try {
    return await new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => {
        const last = output.trim().split("\n").pop() ?? "";
        if (code !== 0 || !last.startsWith("{")) reject(new Error(`the load process exited ${code}`));
        else resolve({ result: JSON.parse(last) as UsageLoadResult, cpuMs });
      });
    });
  } finally {
    clearInterval(sampler);
    await rm(dir, { recursive: true, force: true });
  }
}

/** N active subscriptions whose current period started a day ago, written in one statement each table. */
async function seed(sql: postgres.Sql, n: number): Promise<string[]> {
  const [plan] = await sql<{ id: string }[]>`
    insert into plans (name, amount_minor, currency, interval_unit, interval_count)
    values ('Metered', 1000, 'QAR', 'month', 1) returning id`;
  const rows = await sql<{ id: string }[]>`
    with c as (
      insert into customers (email) select 'bench-' || g || '@example.com' from generate_series(1, ${n}) g
      returning id
    )
    insert into subscriptions (customer_id, plan_id, status, billing_anchor, current_period_start,
                               current_period_end, next_billing_at)
    select c.id, ${plan!.id}, 'active', now() - interval '1 day', now() - interval '1 day',
           now() + interval '29 days', now() + interval '29 days'
    from c returning id`;
  return rows.map((row) => row.id);
}

/** CPU ms of each PostgreSQL process now alive, by pid. */
async function postgresCpuByPid(): Promise<Map<number, number>> {
  const cpu = new Map<number, number>();
  for (const entry of await readdir("/proc").catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    if (!stat.includes("(postgres)")) continue;
    const ms = await processCpuMs(Number(entry));
    if (ms !== undefined) cpu.set(Number(entry), ms);
  }
  return cpu;
}

/** What a phase is measured by: this process's CPU, PostgreSQL's, and the statements this process sent. */
interface Costs {
  selfMs: number;
  postgres: Map<number, number>;
  statements: number;
  transactions: number;
}

/** Statements the engine's pool sends, counted by the driver itself (postgres.js calls `debug` for each). */
const sent = { statements: 0, transactions: 0 };

function countStatements(sql: postgres.Sql): void {
  (sql.options as { debug?: unknown }).debug = (_connection: number, query: string) => {
    sent.statements += 1;
    if (/^\s*begin\b/i.test(query)) sent.transactions += 1;
  };
}

async function costs(): Promise<Costs> {
  const self = process.cpuUsage();
  return { selfMs: (self.user + self.system) / 1000, postgres: await postgresCpuByPid(), ...sent };
}

/**
 * PostgreSQL's CPU over a phase: each backend's growth, and all of a backend born during it. A
 * process that ended during the phase (an autovacuum worker) is not seen, so this can read low.
 */
function postgresMsBetween(before: Costs, after: Costs): number {
  let total = 0;
  for (const [pid, ms] of after.postgres) total += ms - (before.postgres.get(pid) ?? 0);
  return total;
}

function budget(
  label: string,
  events: number,
  requests: number,
  before: Costs,
  after: Costs,
  loadMs?: number,
) {
  const per = (ms: number) => `${((ms * 1000) / events).toFixed(1)} µs`;
  out(
    `  CPU per event:     engine ${per(after.selfMs - before.selfMs)}, PostgreSQL ${per(postgresMsBetween(before, after))}` +
      (loadMs === undefined ? "" : `, load process ${per(loadMs)}`),
  );
  const statements = after.statements - before.statements;
  const transactions = after.transactions - before.transactions;
  out(
    `  statements:        ${thousands(statements)} (${(statements / requests).toFixed(2)} per ${label}, ${(statements / events).toFixed(4)} per event); ` +
      `${transactions === 0 ? "no transaction opened: each statement is its own commit" : `${thousands(transactions)} transactions opened`}`,
  );
}

async function main(): Promise<boolean> {
  const checks: [string, boolean][] = [];
  const tps =
    env.BENCH_PGBENCH_SECONDS > 0
      ? (await pgbenchRun(env.BENCH_DATABASE_URL, env.BENCH_PGBENCH_SECONDS)).tps
      : undefined;
  const dbName = `billing_bench_usage_${randomBytes(5).toString("hex")}`;
  const admin = postgres(env.BENCH_DATABASE_URL, { max: 1, onnotice: () => {} });
  let engine: Engine | undefined;
  let server: ReturnType<typeof buildServer> | undefined;
  try {
    const config = loadConfig({
      NODE_ENV: "production",
      DATABASE_URL: withDatabase(env.BENCH_DATABASE_URL, dbName),
      REDIS_URL: env.BENCH_REDIS_URL,
      QUEUE_PREFIX: `bench_usage_${randomBytes(4).toString("hex")}`,
      // Never called: no gateway operation takes part in usage.
      GATEWAY_BASE_URL: "http://127.0.0.1:9",
      GATEWAY_LEGACY_URL: "http://127.0.0.1:9",
      GATEWAY_API_KEY: randomUUID(),
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      BILLING_CLOCK: "system",
      // The per-key request limit would pace the load, not measure ingestion.
      API_RATE_LIMIT: "0",
      LOG_LEVEL: "silent",
    });
    engine = await createEngine(config);
    const { ctx } = engine;
    countStatements(ctx.db.$client);
    const subscriptions = await seed(ctx.db.$client, env.BENCH_USAGE_SUBSCRIPTIONS);
    for (const meter of METERS) await createMeter(ctx, meter);
    server = buildServer(ctx);
    const url = await server.listen({ port: 0, host: "127.0.0.1" });
    const { key } = await createApiKey(ctx.db, { name: "bench-usage" });
    out(
      `PostgreSQL baseline (pgbench -N, 8 clients): ${tps === undefined ? "skipped" : `${thousands(tps)} tps`}`,
    );
    out(
      `seeded ${thousands(subscriptions.length)} subscriptions, ${METERS.length} meters; sending ${thousands(env.BENCH_USAGE_EVENTS)} events ` +
        `in batches of ${env.BENCH_USAGE_BATCH} from ${env.BENCH_USAGE_CLIENTS} concurrent clients to ${url}/v1/usage…`,
    );

    // HTTP: the load process sends, this process serves.
    const before = await costs();
    const { result, cpuMs } = await runLoad({
      url,
      key,
      subscriptions,
      meters: METERS.map((m) => m.code),
      events: env.BENCH_USAGE_EVENTS,
      batch: env.BENCH_USAGE_BATCH,
      clients: env.BENCH_USAGE_CLIENTS,
      resend: env.BENCH_USAGE_RESEND,
      now: new Date().toISOString(),
    });
    const after = await costs();
    const { main: run, resent } = result;
    const rate = env.BENCH_USAGE_EVENTS / run.seconds;
    out("HTTP (POST /v1/usage):");
    out(
      `  events/s:          ${thousands(rate)} (${thousands(env.BENCH_USAGE_EVENTS)} in ${run.seconds.toFixed(2)} s, ${thousands(run.requests)} requests)` +
        (tps === undefined ? "" : `; ${(rate / tps).toFixed(2)} × pgbench tps`),
    );
    out(
      `  request latency:   p50 ${run.latencies.p50.toFixed(0)} ms, p99 ${run.latencies.p99.toFixed(0)} ms, max ${run.latencies.max.toFixed(0)} ms`,
    );
    // The budget covers the main run and the resend (both are in the counters); events of both.
    const httpEvents = env.BENCH_USAGE_EVENTS + resent.events;
    const httpRequests = run.requests + 2 * env.BENCH_USAGE_RESEND;
    budget("request", httpEvents, httpRequests, before, after, cpuMs);
    out(
      `  answers:           ${thousands(run.accepted)} accepted, ${thousands(run.duplicate)} duplicate, ${thousands(run.refused)} refused` +
        `${Object.keys(run.failures).length ? `, failed requests ${JSON.stringify(run.failures)}` : ""}`,
    );
    for (const reason of [...run.reasons, ...resent.reasons]) out(`    e.g. ${reason}`);
    out(
      `  resent:            ${thousands(resent.events)} events (${env.BENCH_USAGE_RESEND} batches verbatim, as many with moved timestamps): ` +
        `${thousands(resent.duplicate)} duplicate, ${thousands(resent.accepted)} accepted, ${thousands(resent.refused)} refused`,
    );
    checks.push(["every event accepted once", run.accepted === env.BENCH_USAGE_EVENTS]);
    checks.push(["every resent event a duplicate", resent.duplicate === resent.events]);

    // Direct: the ingestion function, with events as validation hands them over.
    if (env.BENCH_USAGE_DIRECT > 0) {
      const batches: UsageEventInput[][] = [];
      const now = Date.now();
      for (let first = 0; first < env.BENCH_USAGE_DIRECT; first += env.BENCH_USAGE_BATCH) {
        const batch: UsageEventInput[] = [];
        for (let i = first; i < Math.min(first + env.BENCH_USAGE_BATCH, env.BENCH_USAGE_DIRECT); i += 1) {
          const meter = METERS[i % METERS.length]!.code;
          batch.push({
            id: `direct-${i}`,
            subscription_id: subscriptions[i % subscriptions.length]!,
            meter,
            quantity: 1 + (i % 997),
            timestamp: new Date(now - ((i * 7919) % 3_600_000)).toISOString(),
            ...(meter === "users" ? { distinct_value: `user-${i % 5000}` } : {}),
          });
        }
        batches.push(batch);
      }
      const directBefore = await costs();
      const started = performance.now();
      let next = 0;
      let accepted = 0;
      await Promise.all(
        Array.from({ length: env.BENCH_USAGE_CLIENTS }, async () => {
          while (next < batches.length) {
            const results = await ingestUsage(ctx, batches[next++]!);
            accepted += results.filter((r) => r.status === "accepted").length;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const directAfter = await costs();
      const directRate = env.BENCH_USAGE_DIRECT / seconds;
      out("direct (ingestUsage, no HTTP, no validation):");
      out(
        `  events/s:          ${thousands(directRate)} (${thousands(env.BENCH_USAGE_DIRECT)} in ${seconds.toFixed(2)} s)` +
          (tps === undefined ? "" : `; ${(directRate / tps).toFixed(2)} × pgbench tps`),
      );
      budget("call", env.BENCH_USAGE_DIRECT, batches.length, directBefore, directAfter);
      checks.push(["every direct event accepted once", accepted === env.BENCH_USAGE_DIRECT]);
    }

    const [stored] = await ctx.db.$client<{ events: number; keys: number }[]>`
      select (select count(*)::int from usage_events) as events, (select count(*)::int from usage_event_keys) as keys`;
    const distinct = env.BENCH_USAGE_EVENTS + env.BENCH_USAGE_DIRECT;
    out(
      `stored: ${thousands(stored!.events)} events, ${thousands(stored!.keys)} keys (${thousands(distinct)} distinct sent)`,
    );
    checks.push([
      "as many rows and keys as distinct events",
      stored!.events === distinct && stored!.keys === distinct,
    ]);
    for (const [name, ok] of checks) out(`check: ${ok ? "ok" : "FAILED"} (${name})`);
    return checks.every(([, ok]) => ok);
  } finally {
    await server?.close();
    await engine?.close();
    await admin`drop database if exists ${admin(dbName)} with (force)`;
    await admin.end();
  }
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error: unknown) => {
    process.stderr.write(
      `bench:usage failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
