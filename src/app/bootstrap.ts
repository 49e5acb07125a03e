import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { DateTime } from "luxon";
import { type Clock, systemClock } from "../clock/index.js";
import { type Config, ConfigError, decodeKey, publicUrlOf } from "../config/index.js";
import { createDatabaseClock, type EngineContext } from "../context/index.js";
import { developmentVault, readDevelopmentKey, type TokenVault, vaultFromConfig } from "../crypto/index.js";
import { saveMerchantSettings } from "../customers/index.js";
import { createDb, type DbClient, migrateDatabase } from "../db/index.js";
import { createGatewayClient, type GatewayClient } from "../gateway/index.js";
import { createLogger, type Logger } from "../logger/index.js";
import { assertRedisReachable, createQueueSystem, queueSystemOptionsFromConfig } from "../queue/index.js";
import { resealWebhookSecrets } from "../webhooks/index.js";
import { closeEngineMessages, engineMessages } from "./messages.js";
import { dunningFromConfig, merchantSettingsOf, type Problem } from "./settings.js";

/**
 * The composition root: turns a validated Config into an EngineContext. Every process of the engine
 * (HTTP server, scheduler, each worker) builds its context here, so they agree on the database, the
 * queues, the gateway, the token key and the billing clock. Rules:
 * - every missing or contradictory setting is reported at once, before anything connects;
 * - a database or Redis that does not answer the first connection stops the boot, naming the
 *   variable (DATABASE_URL, REDIS_URL) and where it points;
 * - the database is migrated before use (safe from many processes: migrations take a lock), then
 *   webhook signing secrets still in clear (or under a retired key) are sealed with the current
 *   token key, which is known here and not in `billing migrate` (see src/webhooks/secrets.ts),
 *   and an engine process writes the merchant's settings the customer outbox reads (tax, message
 *   kinds turned off, paid invoices at the gateway) to merchant_settings (customers/merchant-settings.ts);
 * - a dunning policy beyond the card networks' retry limits, or an unknown message kind in
 *   MESSAGES_DISABLED, stops the boot;
 * - the customer messages' renderer and SMTP transport are built here, once per process, so a bad
 *   MESSAGE_TEMPLATES_DIR stops the boot (messages.ts);
 * - close() stops the queues (workers finish the jobs in hand, sends included), then closes the
 *   SMTP transport and the database.
 */

export interface EngineOptions {
  /** Defaults to a logger at LOG_LEVEL. */
  logger?: Logger;
  /** Replaces the clock BILLING_CLOCK describes (tests that drive their own clock). */
  clock?: Clock;
  /** Replaces GATEWAY_BASE_URL and GATEWAY_LEGACY_URL, e.g. for an in-process simulator on a free port. */
  gatewayUrls?: { baseUrl: string; legacyUrl: string };
  /**
   * With BILLING_CLOCK=controllable, called with the shared clock's first reading and every change,
   * so that an in-process simulator's clock moves with the engine's.
   */
  onClockChange?: (now: DateTime) => void;
  /** The process's name, as the database sees it (application_name). */
  applicationName?: string;
  /**
   * Whether this process writes its settings to merchant_settings (default true). An engine
   * process's settings are the merchant's; a CLI command borrowing the engine for one call is not
   * one, and its shell may lack TAX_RATE_PERCENT and the rest.
   */
  writeMerchantSettings?: boolean;
}

export interface Engine {
  ctx: EngineContext;
  /** Closes the queue system (waiting for jobs in hand), then the database pool. Idempotent. */
  close(): Promise<void>;
}

/** A setting createEngine needs although the schema leaves it optional (tools run without it). */
function required<K extends keyof Config>(
  config: Config,
  variable: K,
  problems: Problem[],
): NonNullable<Config[K]> | undefined {
  const value = config[variable];
  if (value === undefined || value === null) {
    problems.push({ variable, message: "required to run the engine" });
    return undefined;
  }
  return value;
}

/**
 * The development token key: read from `file`, or generated (32 random bytes, hex) and written there
 * with mode 0600 when the file does not exist. Two processes starting together agree on one key: the
 * file is created exclusively and the loser reads the winner's. The key itself is never logged.
 */
async function developmentKey(file: string, logger: Logger): Promise<string> {
  const location = path.resolve(file);
  const readKey = async () => {
    const key = await readDevelopmentKey(location);
    if (key !== null && !decodeKey(key)) {
      throw new ConfigError([{ variable: "TOKEN_DEV_KEY_FILE", message: `${location} holds no valid key` }]);
    }
    return key;
  };
  const existing = await readKey();
  if (existing !== null) return existing;
  await mkdir(path.dirname(location), { recursive: true, mode: 0o700 });
  try {
    await writeFile(location, `${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 });
    logger.warn(
      { file: location },
      "TOKEN_ENCRYPTION_KEY is not set: generated a development token key; set the variable in production",
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const made = await readKey();
  if (made === null) throw new Error(`${location} vanished after it was made`);
  return made;
}

/**
 * TOKEN_ENCRYPTION_KEY when set. Without it production refuses to start (checked with the other
 * settings); elsewhere a development key is kept in TOKEN_DEV_KEY_FILE (default .data/token-key,
 * git-ignored) under key id "dev", so saved cards survive restarts. Moving to a real key later means
 * listing the dev key in TOKEN_ENCRYPTION_OLD_KEYS as dev:<key> until those rows are resealed.
 */
async function tokenVault(config: Config, logger: Logger): Promise<TokenVault> {
  if (config.TOKEN_ENCRYPTION_KEY) return vaultFromConfig(config);
  const devKey = await developmentKey(config.TOKEN_DEV_KEY_FILE, logger);
  return developmentVault(config, devKey);
}

export async function createEngine(config: Config, options: EngineOptions = {}): Promise<Engine> {
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL });
  const problems: Problem[] = [];
  const databaseUrl = required(config, "DATABASE_URL", problems);
  const apiKey = required(config, "GATEWAY_API_KEY", problems);
  const baseUrl = options.gatewayUrls?.baseUrl ?? required(config, "GATEWAY_BASE_URL", problems);
  const legacyUrl = options.gatewayUrls?.legacyUrl ?? required(config, "GATEWAY_LEGACY_URL", problems);
  if (config.NODE_ENV === "production") required(config, "TOKEN_ENCRYPTION_KEY", problems);
  const dunning = dunningFromConfig(config, problems);
  const merchantSettings = merchantSettingsOf(config, problems);
  if (problems.length > 0 || !databaseUrl || !apiKey || !baseUrl || !legacyUrl || !dunning) {
    throw new ConfigError(problems);
  }

  const vault = await tokenVault(config, logger);
  await migrateDatabase(databaseUrl, { logger });
  if (config.REDIS_URL) await assertRedisReachable(config.REDIS_URL);
  const database: DbClient = createDb(databaseUrl, {
    logger,
    ...(options.applicationName === undefined ? {} : { applicationName: options.applicationName }),
  });
  try {
    await resealWebhookSecrets({ db: database.db, vault, logger });
    if (options.writeMerchantSettings ?? true) await saveMerchantSettings(database.db, merchantSettings);
    const clock =
      options.clock ??
      (config.BILLING_CLOCK === "system"
        ? systemClock
        : await createDatabaseClock(database.db, {
            ...(config.BILLING_CLOCK_START === undefined ? {} : { start: config.BILLING_CLOCK_START }),
            ...(options.onClockChange === undefined ? {} : { onChange: options.onClockChange }),
          }));
    const gateway: GatewayClient = createGatewayClient({
      baseUrl,
      legacyUrl,
      apiKey,
      ...(config.GATEWAY_ACCESS_TOKEN === undefined ? {} : { accessToken: config.GATEWAY_ACCESS_TOKEN }),
      authorizePath: config.GATEWAY_AUTHORIZE_PATH,
      legacyEncoding: config.GATEWAY_LEGACY_ENCODING,
      timeoutMs: config.GATEWAY_TIMEOUT_MS,
      // A socket for every call a worker may have in flight, so none waits behind the agent.
      maxSockets: config.CHARGE_MAX_IN_FLIGHT,
      clock,
      logger,
    });
    const queues = createQueueSystem(queueSystemOptionsFromConfig(config, logger));
    const publicUrl = publicUrlOf(config);
    const ctx: EngineContext = {
      config,
      db: database.db,
      clock,
      gateway,
      queues,
      vault,
      logger,
      dunning,
      publicUrl,
    };
    engineMessages(ctx);
    let closing: Promise<void> | undefined;
    const close = async () => {
      try {
        await queues.close();
      } finally {
        // The workers are done with the gateway: its idle keep-alive sockets go now.
        gateway.close();
        await closeEngineMessages(ctx).catch((err: unknown) =>
          logger.error({ err }, "closing the SMTP transport failed"),
        );
        await database.close();
      }
    };
    logger.info(
      { clock: options.clock ? "injected" : config.BILLING_CLOCK, queues: queues.backend, publicUrl },
      "engine ready",
    );
    return {
      ctx,
      close: () => {
        closing ??= close();
        return closing;
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
