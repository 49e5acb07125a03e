/**
 * Entitlements read benchmark (`npm run bench:entitlements`): what `GET /v1/customers/{id}/entitlements`
 * costs behind the HTTP layer, as a direct call of customerEntitlements(). A fresh database is migrated
 * and seeded with set-based SQL: features, three plans including five each, and customers with an
 * active, a trialing and a past_due subscription (its charge declined two days ago, with attempts).
 * Then:
 *   - cached: every measured customer read once, then read again and again from the in-process cache
 *     (ENTITLEMENTS_CACHE_SECONDS=3600), timed one call at a time: p50 / p99 / max in µs;
 *   - uncached: ENTITLEMENTS_CACHE_SECONDS=0, so every call runs the loading statement: p50 / p99 / max.
 * A cached p99 above 1 ms fails the run (exit code 1). The database is dropped at the end.
 *
 *   BENCH_ENTITLEMENTS_CUSTOMERS   customers seeded (default 20,000)
 *   BENCH_ENTITLEMENTS_CACHED      timed cached reads (default 200,000)
 *   BENCH_ENTITLEMENTS_UNCACHED    timed uncached reads (default 2,000)
 *   BENCH_DATABASE_URL             maintenance database of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { randomBytes } from "node:crypto";
import postgres, { type Sql } from "postgres";
import { z } from "zod";
import { systemClock } from "../src/clock/index.js";
import { loadConfig } from "../src/config/index.js";
import { createDb, type DbClient, migrateDatabase } from "../src/db/index.js";
import { withDatabase } from "../src/db/url.js";
import { customerEntitlements } from "../src/entitlements/index.js";

const env = z
  .object({
    BENCH_ENTITLEMENTS_CUSTOMERS: z.coerce.number().int().min(100).max(2_000_000).default(20_000),
    BENCH_ENTITLEMENTS_CACHED: z.coerce.number().int().min(1000).max(100_000_000).default(200_000),
    BENCH_ENTITLEMENTS_UNCACHED: z.coerce.number().int().min(10).max(1_000_000).default(2_000),
    BENCH_DATABASE_URL: z.string().default("postgres://postgres@127.0.0.1:5432/postgres"),
  })
  .parse(process.env);

/** Customers read in the timed loops, round robin: enough not to be one hot key. */
const MEASURED_CUSTOMERS = 1000;
const CACHED_LIMIT_MS = 1;

const out = (line = "") => process.stdout.write(`${line}\n`);

async function seed(sql: Sql, customers: number): Promise<void> {
  await sql`
    insert into features (code, name, kind)
    select 'feature_' || i, 'Feature ' || i, (case when i % 2 = 0 then 'boolean' else 'limit' end)::feature_kind
    from generate_series(0, 9) i`;
  await sql`
    insert into plans (name, amount_minor, currency, interval_unit, interval_count)
    select 'Plan ' || i, 10000 * i, 'QAR', 'month', 1 from generate_series(1, 3) i`;
  await sql`
    insert into plan_features (plan_id, feature_id, limit_value)
    select p.id, f.id, case when f.kind = 'limit' then (random() * 100)::int end
    from (select id, row_number() over (order by name) as n from plans) p
    join (select id, kind, row_number() over (order by code) as n from features) f on (f.n + p.n) % 2 = 0`;
  await sql`
    insert into customers (email) select 'bench-' || i || '@example.qa' from generate_series(1, ${customers}) i`;
  await sql`
    insert into subscriptions (customer_id, plan_id, status, billing_anchor, next_billing_at, trial_end)
    select c.id, p.id, s.status::subscription_status, now() - interval '20 days', now() + interval '10 days',
           case when s.status = 'trialing' then now() + interval '10 days' end
    from customers c
    cross join (values (1, 'active'), (2, 'trialing'), (3, 'past_due')) as s(n, status)
    join (select id, row_number() over (order by name) as n from plans) p on p.n = s.n`;
  await sql`
    insert into charges (subscription_id, plan_id, period_start, period_end, amount_minor, currency, status,
                         attempt_count, next_attempt_at, first_failed_at)
    select s.id, s.plan_id, now() - interval '2 days', now() + interval '28 days', 30000, 'QAR', 'retrying',
           1, now() + interval '1 day', now() - interval '2 days'
    from subscriptions s where s.status = 'past_due'`;
  await sql`
    insert into charge_attempts (charge_id, order_id, attempt_number, status, settled_at)
    select c.id, 'bench-' || c.id, 1, 'declined', now() - interval '2 days' from charges c`;
  await sql`analyze`;
}

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

async function timed(calls: number, ids: readonly string[], read: (id: string) => Promise<unknown>) {
  const samples: number[] = new Array(calls);
  for (let i = 0; i < calls; i++) {
    const id = ids[i % ids.length] as string;
    const start = performance.now();
    await read(id);
    samples[i] = performance.now() - start;
  }
  return percentiles(samples);
}

async function main() {
  const dbName = `billing_bench_entitlements_${randomBytes(5).toString("hex")}`;
  const databaseUrl = withDatabase(env.BENCH_DATABASE_URL, dbName);
  const admin = postgres(env.BENCH_DATABASE_URL, { max: 1, onnotice: () => {} });
  let database: DbClient | undefined;
  try {
    await migrateDatabase(databaseUrl);
    database = createDb(databaseUrl, { max: 4 });
    out(
      `seeding ${env.BENCH_ENTITLEMENTS_CUSTOMERS.toLocaleString("en-US")} customers, 3 subscriptions each…`,
    );
    await seed(database.sql, env.BENCH_ENTITLEMENTS_CUSTOMERS);
    const ids = (
      await database.sql<
        { id: string }[]
      >`select id from customers order by random() limit ${MEASURED_CUSTOMERS}`
    ).map((row) => row.id);
    const base = loadConfig({ DATABASE_URL: databaseUrl });
    const context = (seconds: number) => ({
      db: database!.db,
      clock: systemClock,
      config: { ...base, ENTITLEMENTS_CACHE_SECONDS: seconds },
    });

    const sample = await customerEntitlements(context(0), ids[0]!);
    out(`one customer's answer: ${JSON.stringify(sample?.entitlements)}`);

    const uncachedCtx = context(0);
    await timed(Math.min(100, env.BENCH_ENTITLEMENTS_UNCACHED), ids, (id) =>
      customerEntitlements(uncachedCtx, id),
    );
    const uncached = await timed(env.BENCH_ENTITLEMENTS_UNCACHED, ids, (id) =>
      customerEntitlements(uncachedCtx, id),
    );

    const cachedCtx = context(3600);
    for (const id of ids) await customerEntitlements(cachedCtx, id);
    await timed(10_000, ids, (id) => customerEntitlements(cachedCtx, id));
    const cached = await timed(env.BENCH_ENTITLEMENTS_CACHED, ids, (id) =>
      customerEntitlements(cachedCtx, id),
    );

    const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
    out();
    out("| read | calls | p50 | p99 | max |");
    out("| --- | ---: | ---: | ---: | ---: |");
    out(
      `| cached | ${env.BENCH_ENTITLEMENTS_CACHED} | ${us(cached.p50)} | ${us(cached.p99)} | ${us(cached.max)} |`,
    );
    out(
      `| uncached | ${env.BENCH_ENTITLEMENTS_UNCACHED} | ${us(uncached.p50)} | ${us(uncached.p99)} | ${us(uncached.max)} |`,
    );
    out();
    const ok = cached.p99 <= CACHED_LIMIT_MS;
    out(`cached p99 ${us(cached.p99)} ${ok ? "≤" : ">"} ${CACHED_LIMIT_MS} ms: ${ok ? "ok" : "TOO SLOW"}`);
    if (!ok) process.exitCode = 1;
  } finally {
    await database?.close();
    await admin`drop database if exists ${admin(dbName)} with (force)`;
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
