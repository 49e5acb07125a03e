import { type Config, loadConfig } from "../config/index.js";
import { embeddedPostgresOptionsFromConfig, startEmbeddedPostgres } from "../infra/index.js";
import type { Logger } from "../logger/index.js";
import { type RuntimeRecord, readLiveRuntime } from "./runtime-file.js";
import { dataDirOf, setVariables, withZeroConfigDefaults } from "./zero-config.js";

/**
 * Where this process finds its database, and the settings it runs with. In order:
 * 1. DATABASE_URL, when set: used as is ("configured");
 * 2. a live engine recorded in `<data dir>/runtime.json`: its embedded database, and its
 *    in-process simulator and clock mode unless the environment names others ("shared");
 * 3. otherwise an embedded PostgreSQL this process starts on `<data dir>/postgres` and stops in
 *    release() ("embedded").
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

export async function resolveSetup(env: NodeJS.ProcessEnv, logger: Logger): Promise<EngineSetup> {
  const set = setVariables(env);
  const dataDir = dataDirOf(set);
  const runtime = set.DATABASE_URL ? undefined : await readLiveRuntime(dataDir);
  const config = loadConfig(withZeroConfigDefaults({ ...(runtime ? variablesOf(runtime) : {}), ...set }));
  if (config.DATABASE_URL) {
    const databaseSource = runtime ? "shared" : "configured";
    return {
      config,
      databaseUrl: config.DATABASE_URL,
      dataDir,
      databaseSource,
      runtime,
      release: async () => {},
      onDatabaseExit: () => {},
    };
  }
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
