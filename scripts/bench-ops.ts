/**
 * Ops dashboard benchmark (`npm run bench:ops`): are the dashboard's pages fast at a million
 * subscriptions? A fresh database is migrated and seeded with set-based SQL (scripts/bench/ops-seed.ts:
 * 1,000,000 subscriptions, three months of charges and attempts, …), vacuumed and analyzed; then
 * each read model of src/ops is timed as the dashboard calls it, for the 24h, 30d and 90d ranges,
 * and so is a whole page (`opsReader(ctx).read(range)`) with OPS_CACHE_SECONDS=0 (every view
 * reads everything) and with the cache warm. `select count(*)` of subscriptions and of charges are
 * timed beside them as the cost of one full scan. Then every statement the page runs is captured
 * (postgres.js `debug`) and run again under EXPLAIN (ANALYZE, BUFFERS) at the 90d range, summarised
 * as its scan nodes, so a sequential scan of a big table shows. The database is dropped at the end.
 *
 *   BENCH_OPS_SUBSCRIPTIONS  subscriptions seeded (default 1,000,000)
 *   BENCH_OPS_RUNS           timed runs of each read (default 5, after one warm-up run)
 *   BENCH_OPS_SLOW_MS        a median above this is reported as slow (default 300)
 *   BENCH_OPS_SEED_CHECKED   1: seed with every index in place and foreign keys checked row by row
 *                            (slow; shows that the fast load writes rows the constraints accept)
 *   BENCH_OPS_DATABASE       a database to keep (never dropped): seeded when it holds no subscription
 *                            yet, else measured as it is, after migrating it, so that a new index or
 *                            query can be tried without seeding again. Its data is dated from its
 *                            seeding: measure again within hours. Drop it yourself.
 *   BENCH_REDIS_URL          Redis for the queue depths (default redis://127.0.0.1:6379)
 *   BENCH_DATABASE_URL       maintenance database of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { randomBytes } from "node:crypto";
import postgres, { type Sql } from "postgres";
import { z } from "zod";
import { systemClock } from "../src/clock/index.js";
import { loadConfig } from "../src/config/index.js";
import { createDb, type DbClient, migrateDatabase } from "../src/db/index.js";
import { withDatabase } from "../src/db/url.js";
import {
  attention,
  collections,
  dunningFunnel,
  type OpsRange,
  opsReader,
  presetRange,
  queueHealth,
  type RangePreset,
  subscriptionOverview,
  upcoming,
} from "../src/ops/index.js";
import { createQueueSystem, type QueueSystem } from "../src/queue/index.js";
import { type Explained, explainEach } from "./bench/explain.js";
import { seedOpsData } from "./bench/ops-seed.js";

const env = z
  .object({
    BENCH_OPS_SUBSCRIPTIONS: z.coerce.number().int().min(1000).max(5_000_000).default(1_000_000),
    BENCH_OPS_RUNS: z.coerce.number().int().min(1).max(100).default(5),
    BENCH_OPS_SLOW_MS: z.coerce.number().min(1).default(300),
    BENCH_OPS_SEED_CHECKED: z.enum(["0", "1"]).default("0"),
    BENCH_OPS_DATABASE: z.string().min(1).optional(),
    BENCH_REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
    BENCH_DATABASE_URL: z.string().default("postgres://postgres@127.0.0.1:5432/postgres"),
  })
  .parse(process.env);

const RANGES: readonly RangePreset[] = ["24h", "30d", "90d"];
const CURRENCY = "QAR";
/** A sequential scan returning more rows than this is reported. */
const BIG_SCAN_ROWS = 10_000;

const out = (line = "") => process.stdout.write(`${line}\n`);
const thousands = (n: number) => n.toLocaleString("en-US");
const fmt = (ms: number) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0));

interface Stats {
  min: number;
  median: number;
  max: number;
}

/** One warm-up run (plans cached, pages in memory), then `runs` timed ones. */
async function timed(runs: number, run: () => Promise<unknown>): Promise<Stats> {
  await run();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return { min: ms[0] ?? 0, median: ms[Math.floor(ms.length / 2)] ?? 0, max: ms[ms.length - 1] ?? 0 };
}

/** Seeds the fresh database and prints each step's time. */
async function seed(sql: Sql, n: number): Promise<void> {
  out(`seeding ${thousands(n)} subscriptions…`);
  const start = performance.now();
  const line = (name: string, rows: string, seconds: number) =>
    out(`  ${name.padEnd(38)} ${rows.padStart(11)}  ${seconds.toFixed(1)} s`);
  await seedOpsData(sql, systemClock.now().toUTC().toISO() ?? "", n, {
    checked: env.BENCH_OPS_SEED_CHECKED === "1",
    onStep: (step) => line(step.name, thousands(step.rows), step.seconds),
  });
  const vacuumStart = performance.now();
  await sql`vacuum analyze`;
  line("vacuum analyze", "", (performance.now() - vacuumStart) / 1000);
  out(`seeded in ${((performance.now() - start) / 1000).toFixed(0)} s`);
}

async function describeData(sql: Sql): Promise<void> {
  const tables = await sql<{ name: string; rows: string; size: string }[]>`
    select c.relname as name, c.reltuples::bigint::text as rows,
           pg_size_pretty(pg_total_relation_size(c.oid)) as size
    from pg_class c where c.relname in ('subscriptions', 'payment_methods', 'charges', 'charge_attempts')
    order by c.reltuples desc`;
  for (const t of tables) out(`  ${t.name}: ${thousands(Number(t.rows))} rows, ${t.size} with indexes`);
  const [charges] = await sql<{ breakdown: string }[]>`
    select string_agg(status || ' ' || n, ', ' order by n desc) as breakdown
    from (select status::text, count(*) as n from charges group by 1) s`;
  out(`  charges: ${charges?.breakdown}`);
  out();
}

function printExplained(explained: readonly Explained[]): string[] {
  const bigScans: string[] = [];
  out("EXPLAIN (ANALYZE, BUFFERS) of every statement a page runs, 90d range:");
  explained.forEach((e, i) => {
    const scans = e.scans.map((s) => {
      if (s.type.endsWith("Seq Scan") && s.rows > BIG_SCAN_ROWS)
        bigScans.push(`#${i + 1} ${e.label}: ${s.type} on ${s.on} (${thousands(s.rows)} rows)`);
      const loops = s.loops > 1 ? ` in ${thousands(s.loops)} loops` : "";
      const fetches = s.heapFetches > 0 ? `, heap fetches ${thousands(s.heapFetches)}` : "";
      return `${s.type} ${s.on} (${thousands(s.rows)} rows${loops}${fetches})`;
    });
    out(
      `  #${i + 1} ${e.label}, from ${e.table}: ${e.ms.toFixed(1)} ms, ${thousands(e.rowsOut)} rows out, ` +
        `buffers ${thousands(e.buffersHit)} hit, ${thousands(e.buffersRead)} read`,
    );
    out(`      ${scans.join("; ") || "(no scan)"}`);
  });
  return bigScans;
}

async function main() {
  const n = env.BENCH_OPS_SUBSCRIPTIONS;
  const kept = env.BENCH_OPS_DATABASE;
  const dbName = kept ?? `billing_bench_ops_${randomBytes(5).toString("hex")}`;
  const databaseUrl = withDatabase(env.BENCH_DATABASE_URL, dbName);
  const admin = postgres(env.BENCH_DATABASE_URL, { max: 1, onnotice: () => {} });
  const prefix = `bench_ops_${randomBytes(4).toString("hex")}`;
  let database: DbClient | undefined;
  let queues: QueueSystem | undefined;
  try {
    await migrateDatabase(databaseUrl);
    database = createDb(databaseUrl, { max: 10 });
    const { sql } = database;
    const [held] = await sql<{ seeded: boolean }[]>`select exists (select 1 from subscriptions) as seeded`;
    if (held?.seeded) {
      out(`measuring ${dbName} as seeded before (analyzed again)…`);
      await sql`analyze`;
    } else {
      await seed(sql, n);
    }
    await describeData(sql);

    const activeQueues = createQueueSystem({ redisUrl: env.BENCH_REDIS_URL, prefix });
    queues = activeQueues;
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      REDIS_URL: env.BENCH_REDIS_URL,
      QUEUE_PREFIX: prefix,
    });
    const reader = (client: Sql, cacheSeconds: number) =>
      opsReader({
        // opsReader reads only through ctx.db.$client, so any postgres.js client will do.
        db: { $client: client } as unknown as DbClient["db"],
        queues: activeQueues,
        clock: systemClock,
        config: { ...config, OPS_CACHE_SECONDS: cacheSeconds },
      });
    const now = () => systemClock.now();
    const reads: { label: string; run: (client: Sql, range: OpsRange) => Promise<unknown> }[] = [
      { label: "collections", run: (client, range) => collections(client, range, CURRENCY, now()) },
      { label: "dunningFunnel", run: (client, range) => dunningFunnel(client, range, CURRENCY) },
      { label: "subscriptionOverview", run: (client, range) => subscriptionOverview(client, range) },
      { label: "upcoming", run: (client) => upcoming(client, now()) },
      { label: "attention", run: (client) => attention(client) },
      { label: "queueHealth", run: (client) => queueHealth(client, activeQueues, now()) },
      { label: "page: read(), no cache", run: (client, range) => reader(client, 0).read(range) },
    ];
    const cached = reader(sql, 3600);
    reads.push({ label: "page: read(), cache warm", run: (_client, range) => cached.read(range) });
    const rangeOf = (preset: RangePreset) => presetRange(preset, now(), config.BILLING_TIMEZONE);

    const rows: { label: string; stats: Stats[] }[] = [];
    for (const read of reads) {
      const stats: Stats[] = [];
      for (const preset of RANGES) {
        const range = rangeOf(preset);
        stats.push(await timed(env.BENCH_OPS_RUNS, () => read.run(sql, range)));
      }
      rows.push({ label: read.label, stats });
    }
    const references: { label: string; stats: Stats }[] = [];
    for (const table of ["subscriptions", "charges"]) {
      const stats = await timed(env.BENCH_OPS_RUNS, () => sql`select count(*) from ${sql(table)}`);
      references.push({ label: `one full scan: count(*) ${table}`, stats });
    }
    const cell = (s: Stats) => `${fmt(s.min)} / ${fmt(s.median)} / ${fmt(s.max)}`;
    out(
      `${thousands(n)} subscriptions; ms per call, min / median / max of ${env.BENCH_OPS_RUNS} runs after a warm-up:`,
    );
    out();
    out(`| read | ${RANGES.join(" | ")} |`);
    out(`| --- | ${RANGES.map(() => "---:").join(" | ")} |`);
    for (const r of rows) out(`| ${r.label} | ${r.stats.map(cell).join(" | ")} |`);
    for (const r of references) out(`| ${r.label} | ${cell(r.stats)} | | |`);
    out();

    const wide = rangeOf("90d");
    const explained = await explainEach(
      databaseUrl,
      reads
        .filter((r) => !r.label.includes("cache warm"))
        .map((r) => ({ label: r.label, run: (client: Sql) => r.run(client, wide) })),
    );
    const bigScans = printExplained(explained);
    const slow = rows.flatMap((r) =>
      r.stats.flatMap((s, i) =>
        s.median > env.BENCH_OPS_SLOW_MS ? [`${r.label} at ${RANGES[i]}: ${fmt(s.median)} ms`] : [],
      ),
    );
    out();
    out(`median slower than ${env.BENCH_OPS_SLOW_MS} ms: ${slow.length === 0 ? "none" : ""}`);
    for (const line of slow) out(`  ${line}`);
    out(
      `sequential scans returning more than ${thousands(BIG_SCAN_ROWS)} rows: ${bigScans.length === 0 ? "none" : ""}`,
    );
    for (const line of bigScans) out(`  ${line}`);
  } finally {
    await queues?.obliterate().catch(() => undefined);
    await queues?.close();
    await database?.close();
    if (!kept) await admin`drop database if exists ${admin(dbName)} with (force)`;
    await admin.end();
  }
}

await main();
