/**
 * Billing benchmark (`npm run bench`): N subscriptions fall due at the same moment; the billing
 * tick creates their charges and a charge worker collects them through GetnewPayment against the
 * simulator, which runs in a child process so that it does not share this event loop. Prints the
 * charges per second, the worker process's peak memory, and checks that every charge was
 * collected exactly once according to the simulator's ledger.
 *
 *   BENCH_SUBSCRIPTIONS  how many subscriptions fall due (default 1000)
 *   BENCH_CONCURRENCY    charge worker concurrency (default 32)
 *   BENCH_RATE           charges per second allowed toward the gateway (default 100000)
 *   BENCH_REDIS_URL      Redis for the queues (default redis://127.0.0.1:6379)
 *   BENCH_DATABASE_URL   maintenance database of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { count, eq } from "drizzle-orm";
import postgres from "postgres";
import { z } from "zod";
import type { EngineContext } from "../src/app/index.js";
import { DEFAULT_DUNNING_POLICY } from "../src/billing/index.js";
import { startChargeWorker } from "../src/charging/index.js";
import { systemClock } from "../src/clock/index.js";
import { loadConfig } from "../src/config/index.js";
import { createTokenVault } from "../src/crypto/index.js";
import { createCustomer } from "../src/customers/index.js";
import { createDb, migrateDatabase } from "../src/db/index.js";
import { charges } from "../src/db/schema/index.js";
import { withDatabase } from "../src/db/url.js";
import { applyGatewayCallback, enroll } from "../src/enrollment/index.js";
import { createGatewayClient } from "../src/gateway/index.js";
import { silentLogger } from "../src/logger/index.js";
import { createPlan } from "../src/plans/index.js";
import { createQueueSystem } from "../src/queue/index.js";
import { runBillingTick } from "../src/scheduler/index.js";

const env = z
  .object({
    BENCH_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(100_000).default(1000),
    BENCH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
    BENCH_RATE: z.coerce.number().int().min(1).default(100_000),
    BENCH_REDIS_URL: z.string().default("redis://127.0.0.1:6379"),
    BENCH_DATABASE_URL: z.string().default("postgres://postgres@127.0.0.1:5432/postgres"),
  })
  .parse(process.env);

const DEADLINE_MS = 10 * 60_000;

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
  const key = randomBytes(32);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    REDIS_URL: env.BENCH_REDIS_URL,
    GATEWAY_BASE_URL: sim.url,
    GATEWAY_LEGACY_URL: sim.url,
    GATEWAY_API_KEY: sim.apiKey,
    TOKEN_ENCRYPTION_KEY: key.toString("hex"),
    QUEUE_PREFIX: `bench_${randomBytes(4).toString("hex")}`,
    LOG_LEVEL: "silent",
  });
  const queues = createQueueSystem({ redisUrl: env.BENCH_REDIS_URL, prefix: config.QUEUE_PREFIX });
  const ctx: EngineContext = {
    config,
    db: database.db,
    clock: systemClock,
    gateway: createGatewayClient({ baseUrl: sim.url, legacyUrl: sim.url, apiKey: sim.apiKey }),
    queues,
    vault: createTokenVault({ currentKeyId: "bench", currentKey: key }),
    logger: silentLogger,
    dunning: DEFAULT_DUNNING_POLICY,
    publicUrl: "http://127.0.0.1:9",
  };

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

    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 50);
    const worker = startChargeWorker(ctx, {
      concurrency: env.BENCH_CONCURRENCY,
      ratePerSecond: env.BENCH_RATE,
    });
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
    clearInterval(sampler);
    await worker.close();

    const ledger = (await (await fetch(`${sim.url}/_sim/ledger`)).json()) as {
      payments: { operation: string; status: string }[];
    };
    const collected = ledger.payments.filter(
      (p) => p.operation === "GetnewPayment" && p.status === "SUCCESS",
    );
    process.stdout.write(
      [
        `subscriptions:        ${n} (enrolled in ${setupSeconds.toFixed(1)} s)`,
        `charge concurrency:   ${env.BENCH_CONCURRENCY}`,
        `charges paid:         ${paidCount} in ${seconds.toFixed(2)} s`,
        `charges per second:   ${(paidCount / seconds).toFixed(0)}`,
        `peak RSS (worker):    ${(peakRss / 1024 / 1024).toFixed(0)} MiB`,
        `gateway collections:  ${collected.length} (exactly once: ${collected.length === n ? "yes" : "NO"})`,
        "",
      ].join("\n"),
    );
    if (collected.length !== n) process.exitCode = 1;
  } finally {
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
