// Not the app index: commands that only read the database should not load the whole engine.
import { loadEngineConfig } from "../app/settings.js";
import type { Config } from "../config/index.js";
import { embeddedPostgresOptionsFromConfig, startEmbeddedPostgres } from "../infra/index.js";
import type { Logger } from "../logger/index.js";
import { type RuntimeRecord, readLiveRuntime, runtimeFileOf } from "./runtime-file.js";
import { dataDirOf, setVariables, withZeroConfigDefaults } from "./zero-config.js";

/**
 * Where this process finds its database, and the settings it runs with. In order:
 * 1. a live engine recorded in `<data dir>/runtime.json` that uses the database this process would
 *    (DATABASE_URL unset, or the same URL): its database and queues, and its in-process simulator
 *    and clock mode, unless the environment names others ("shared");
 * 2. DATABASE_URL, when set: used as is ("configured");
 * 3. otherwise an embedded PostgreSQL this process starts on `<data dir>/postgres` and stops in
 *    release() ("embedded"). A process that only joins a running engine (joinSetup) never starts
 *    one: without 1 or 2 it stops with NoRunningEngineError.
 */
export type DatabaseSource = "configured" | "shared" | "embedded";

export interface EngineSetup {
  /** Validated, with DATABASE_URL set to databaseUrl. */
  config: Config;
  databaseUrl: string;
  dataDir: string;
  databaseSource: DatabaseSource;
  /** The running engine this process joins (source "shared"). */
  runtime: RuntimeRecord | undefined;
  /** Stops the embedded database if this process started it. Idempotent. */
  release(): Promise<void>;
  /**
   * Calls `listener` once if the embedded database this process started dies (not on release()),
   * with a sentence saying how. Never called for a database this process did not start.
   */
  onDatabaseExit(listener: (how: string) => void): void;
}

/** What a running engine chose for itself, as the variables that would have chosen it. */
function variablesOf(runtime: RuntimeRecord): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: runtime.database_url,
    ...(runtime.redis_url === null ? {} : { REDIS_URL: runtime.redis_url }),
    QUEUE_PREFIX: runtime.queue_prefix,
    BILLING_CLOCK: runtime.clock,
    ...(runtime.url === null ? {} : { PUBLIC_URL: runtime.url }),
    ...(runtime.gateway === null
      ? {}
      : {
          GATEWAY_BASE_URL: runtime.gateway.url,
          GATEWAY_LEGACY_URL: runtime.gateway.url,
          GATEWAY_API_KEY: runtime.gateway.api_key,
        }),
  };
}

/** There is no database to use, and this process does not start one. */
export class NoRunningEngineError extends Error {
  constructor(dataDir: string) {
    super(
      `no running engine found: ${runtimeFileOf(dataDir)} names none and DATABASE_URL is not set.\n` +
        "Start the engine with `npm start` from this directory (or with the same BILLING_DATA_DIR), " +
        "or set DATABASE_URL and the GATEWAY_* variables.",
    );
    this.name = "NoRunningEngineError";
  }
}

/**
 * The settings, and the running engine they join, before any database is started: every setting
 * is checked at once (loadEngineConfig, with the variables in `needs`), so a bad one stops the
 * process before an embedded database is made or started.
 */
async function settingsOf(env: NodeJS.ProcessEnv, needs: readonly (keyof Config)[] = []) {
  const set = setVariables(env);
  const dataDir = dataDirOf(set);
  const live = await readLiveRuntime(dataDir);
  // An engine on another database is not this process's engine, even from the same directory.
  const runtime = live && (!set.DATABASE_URL || set.DATABASE_URL === live.database_url) ? live : undefined;
  const config = loadEngineConfig(
    withZeroConfigDefaults({ ...(runtime ? variablesOf(runtime) : {}), ...set }),
    needs,
  );
  return { config, dataDir, runtime };
}

function withoutEmbedded(settings: Awaited<ReturnType<typeof settingsOf>>, databaseUrl: string): EngineSetup {
  return {
    ...settings,
    databaseUrl,
    databaseSource: settings.runtime ? "shared" : "configured",
    release: async () => {},
    onDatabaseExit: () => {},
  };
}

/** For a process that only joins a running engine (the workers): never starts a database. */
export async function joinSetup(env: NodeJS.ProcessEnv): Promise<EngineSetup> {
  const settings = await settingsOf(env);
  if (!settings.config.DATABASE_URL) throw new NoRunningEngineError(settings.dataDir);
  return withoutEmbedded(settings, settings.config.DATABASE_URL);
}

export async function resolveSetup(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  needs: readonly (keyof Config)[] = [],
): Promise<EngineSetup> {
  const settings = await settingsOf(env, needs);
  const { config, dataDir } = settings;
  if (config.DATABASE_URL) return withoutEmbedded(settings, config.DATABASE_URL);
  const options = embeddedPostgresOptionsFromConfig(config, logger);
  const embedded = await startEmbeddedPostgres(options).catch((error: unknown) => {
    throw new Error(
      `could not start the embedded PostgreSQL in ${options.dataDir}: ${(error as Error).message}\n` +
        "If another process uses that cluster, stop it, or set DATABASE_URL or BILLING_DATA_DIR.",
      { cause: error },
    );
  });
  return {
    config: { ...config, DATABASE_URL: embedded.url },
    databaseUrl: embedded.url,
    dataDir,
    databaseSource: "embedded",
    runtime: undefined,
    release: () => embedded.stop(),
    onDatabaseExit: (listener) => embedded.onUnexpectedExit(listener),
  };
}
