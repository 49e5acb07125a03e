import { randomBytes } from "node:crypto";
import { merchantSettingsOf } from "../../src/app/settings.js";
import { DEFAULT_DUNNING_POLICY, type DunningPolicy } from "../../src/billing/index.js";
import { ControllableClock } from "../../src/clock/index.js";
import { loadConfig } from "../../src/config/index.js";
import type { EngineContext } from "../../src/context/index.js";
import { createTokenVault } from "../../src/crypto/index.js";
import { saveMerchantSettings } from "../../src/customers/index.js";
import { createGatewayClient } from "../../src/gateway/index.js";
import { createLogger } from "../../src/logger/index.js";
import { createQueueSystem } from "../../src/queue/index.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/index.js";
import { createTestDatabase, type TestDatabase } from "./db.js";

/**
 * A whole engine for an integration test: a fresh migrated database, the simulator over HTTP on
 * a free port, a BullMQ queue system on the local Redis under a prefix of its own, a token vault
 * with a random key, and one controllable clock shared by the engine and the simulator.
 *
 *   let h: EngineHarness;
 *   beforeAll(async () => { h = await createEngineHarness(); });
 *   afterAll(() => h?.close());
 */
export interface EngineHarness {
  ctx: EngineContext;
  clock: ControllableClock;
  sim: RunningSimulator;
  database: TestDatabase;
  /** Calls the simulator's admin API (/_sim/...) and returns the parsed JSON reply. */
  simAdmin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  start?: string;
  dunning?: DunningPolicy;
  /** Where the gateway reaches our HTTP server; tests that start the server set it afterwards. */
  publicUrl?: string;
  gatewayTimeoutMs?: number;
  /** Charges per charge job (CHARGE_BATCH_SIZE). */
  chargeBatchSize?: number;
  /** More variables of the configuration, e.g. { RENEWAL_NOTICE_DAYS: "0" }. */
  env?: Record<string, string>;
}

export const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

export async function createEngineHarness(options: HarnessOptions = {}): Promise<EngineHarness> {
  const clock = new ControllableClock(options.start ?? "2026-01-15T09:00:00Z");
  const database = await createTestDatabase();
  const sim = await startSimulator({ clock });
  const prefix = `t_${randomBytes(5).toString("hex")}`;
  const key = randomBytes(32);
  const config = loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    REDIS_URL,
    GATEWAY_BASE_URL: sim.url,
    GATEWAY_LEGACY_URL: sim.url,
    GATEWAY_API_KEY: sim.defaultApiKey,
    GATEWAY_TIMEOUT_MS: String(options.gatewayTimeoutMs ?? 2000),
    TOKEN_ENCRYPTION_KEY: key.toString("hex"),
    BILLING_CLOCK: "controllable",
    ...(options.chargeBatchSize === undefined ? {} : { CHARGE_BATCH_SIZE: String(options.chargeBatchSize) }),
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    ...options.env,
  });
  // What createEngine does once the database is migrated: the outbox reads these settings.
  await saveMerchantSettings(database.db, merchantSettingsOf(config));
  const logger = createLogger({ level: config.LOG_LEVEL });
  const gateway = createGatewayClient({
    baseUrl: sim.url,
    legacyUrl: sim.url,
    apiKey: sim.defaultApiKey,
    timeoutMs: config.GATEWAY_TIMEOUT_MS,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    clock,
    logger,
  });
  const queues = createQueueSystem({
    redisUrl: REDIS_URL,
    prefix,
    logger,
    retry: { attempts: 5, backoffMs: 20, jitter: 0.5 },
  });
  const ctx: EngineContext = {
    config,
    db: database.db,
    clock,
    gateway,
    queues,
    vault: createTokenVault({ currentKeyId: "k1", currentKey: key }),
    logger,
    dunning: options.dunning ?? DEFAULT_DUNNING_POLICY,
    publicUrl: options.publicUrl ?? "http://127.0.0.1:9",
  };

  async function simAdmin<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${sim.url}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    ctx,
    clock,
    sim,
    database,
    simAdmin,
    async close() {
      await queues.obliterate().catch(() => undefined);
      await queues.close();
      await sim.close();
      await database.drop();
    },
  };
}
