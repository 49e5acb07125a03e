import { createEngine, type Engine } from "../src/app/index.js";
import { type Config, ConfigError } from "../src/config/index.js";
import { createLogger } from "../src/logger/index.js";
import { type MetricsServer, startMetricsServer } from "../src/metrics/index.js";
import { gracefulShutdown } from "../src/queue/index.js";
import { exitOnFatalErrors, watchConnections, workerProbes } from "../src/runtime/index.js";
import type { Role } from "../src/runtime/roles.js";
import { joinSetup, NoRunningEngineError } from "../src/runtime/setup.js";

/**
 * The boot and shutdown every worker process shares, so each entry point (workers/*.ts) only names
 * the roles it runs. Rules:
 * - settings come from the environment once, joined to the running engine's when the data
 *   directory's runtime.json names one on the same database (src/runtime/setup.ts: a zero-config
 *   `npm start` needs no variable here); a bad setting, or no database to join, stops the process
 *   with exit code 1 and one message saying what to set or start;
 * - every role starts on one engine context (createEngine: migrated database, queues, gateway,
 *   vault, shared billing clock); a role that fails to start stops the process;
 * - SIGTERM/SIGINT closes the engine: its queue system stops taking jobs and waits for the ones in
 *   hand, then the database closes. Past SHUTDOWN_TIMEOUT_MS the process exits 1 and BullMQ hands
 *   the unfinished jobs to another worker when their locks lapse (every job is idempotent);
 * - the process heals by being replaced: a database or Redis unreachable for longer than
 *   WORKER_CONNECTION_GRACE_MS, an uncaught exception or an unhandled rejection closes it the same
 *   way and exits 1, for its supervisor to start a fresh one (src/runtime/README.md);
 * - with METRICS_PORT set, the process serves its own counters at /metrics on that port.
 */
export async function runWorkers(name: string, roles: readonly Role[]): Promise<void> {
  let config: Config;
  try {
    ({ config } = await joinSetup(process.env));
  } catch (error) {
    if (!(error instanceof ConfigError) && !(error instanceof NoRunningEngineError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ level: config.LOG_LEVEL, name });
  let engine: Engine | undefined;
  let metrics: MetricsServer | undefined;
  try {
    engine = await createEngine(config, { logger, applicationName: name });
    for (const role of roles) await role(engine.ctx);
    if (config.METRICS_PORT !== undefined) {
      metrics = await startMetricsServer({
        port: config.METRICS_PORT,
        host: config.HOST,
        token: config.METRICS_TOKEN,
        logger,
      });
    }
  } catch (err) {
    logger.fatal({ err }, "could not start");
    await engine?.close().catch((closeErr: unknown) => logger.error({ err: closeErr }, "close failed"));
    process.exit(1);
  }
  const started = engine;
  const watch = watchConnections(workerProbes(started.ctx), {
    graceMs: config.WORKER_CONNECTION_GRACE_MS,
    logger,
    onDead: (connection, downForMs) => {
      logger.fatal({ connection, downForMs }, "connection down past WORKER_CONNECTION_GRACE_MS; stopping");
      void shutdown.shutdown("connection lost", { failed: true });
    },
  });
  const shutdown = gracefulShutdown([() => watch.stop(), started, ...(metrics ? [metrics] : [])], {
    logger,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  });
  exitOnFatalErrors(shutdown, logger);
  logger.info({ roles: roles.length }, "worker process running");
}
