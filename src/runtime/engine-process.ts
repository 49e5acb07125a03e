import { createEngine, engineNeeds, type RunningServer, startServer } from "../app/index.js";
import type { EngineContext } from "../context/index.js";
import { findFreePort } from "../infra/index.js";
import { createLogger, type Logger } from "../logger/index.js";
import { startMetricsServer } from "../metrics/index.js";
import type { RunningSimulator } from "../simulator/index.js";
import {
  configureMerchant,
  followClock,
  keepInvoiceIdsAhead,
  startInProcessGateway,
} from "./in-process-gateway.js";
import {
  charges,
  invoices,
  messages,
  scheduler,
  statusChecks,
  tickScheduler,
  tokens,
  webhooks,
} from "./roles.js";
import { claimRuntimeRecord, removeRuntimeRecord, runtimeFileOf } from "./runtime-file.js";
import { type EngineSetup, resolveSetup } from "./setup.js";
import { superviseRoles } from "./supervisor.js";
import { startTickThread } from "./tick-thread.js";
import { workerRole } from "./worker-role.js";
import { setVariables, usesInProcessGateway } from "./zero-config.js";

/**
 * The engine in one process: HTTP server, billing scheduler and every worker, plus what a fresh
 * machine lacks (src/runtime/README.md): an embedded PostgreSQL, BullMQ on that PostgreSQL, and
 * the gateway simulator in-process. `npm start`, the `billing serve|worker|scheduler` commands, the
 * demo and tests all start it here; `parts` picks what runs.
 */

export interface EngineParts {
  http: boolean;
  scheduler: boolean;
  workers: boolean;
}

export interface EngineProcessOptions {
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Defaults to a logger at LOG_LEVEL on stdout. */
  logger?: Logger;
  /** Defaults to everything. */
  parts?: Partial<EngineParts>;
}

export interface EngineProcess {
  /** The HTTP server's address when this process serves, else the engine's public URL. */
  url: string;
  ctx: EngineContext;
  setup: EngineSetup;
  /** The in-process gateway simulator, when no gateway is configured. */
  simulator: RunningSimulator | undefined;
  parts: EngineParts;
  /** The runtime.json this process wrote, through which the CLI and other processes find it. */
  runtimeFile: string | undefined;
  /** Stops taking work, lets the jobs in hand finish, then stops what it started. Idempotent. */
  close(): Promise<void>;
}

/** Runs `closers` in order even when one fails, then throws the first failure. */
async function closeAll(closers: (() => Promise<unknown> | unknown)[], logger: Logger): Promise<void> {
  let failure: unknown;
  for (const close of closers) {
    try {
      await close();
    } catch (error) {
      logger.error({ err: error }, "shutdown step failed; continuing");
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}

/**
 * When the embedded PostgreSQL this process started dies, the process exits 1 at once with one
 * line on stderr, saying where the data is and how to go on: nothing can work without the
 * database, and a graceful close would only wait on it. The errors its connections raise meanwhile
 * are one outage, logged once (queue-error-log.ts), so this line is not lost under them.
 */
function exitOnDatabaseExit(how: string): never {
  process.stderr.write(
    `error: ${how}; the engine cannot run without its database and is exiting. ` +
      "Start the engine again (npm start) to restart it; its data is kept\n",
  );
  process.exit(1);
}

export async function startEngineProcess(options: EngineProcessOptions = {}): Promise<EngineProcess> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger({ level: env.LOG_LEVEL || "info" });
  const parts: EngineParts = { http: true, scheduler: true, workers: true, ...options.parts };
  // The database is the embedded one when none is set; the gateway the simulator when none is named.
  const needs = engineNeeds(env, { database: true, gateway: usesInProcessGateway(setVariables(env)) });
  const setup = await resolveSetup(env, logger, needs);
  setup.onDatabaseExit(exitOnDatabaseExit);
  // Filled as things start; on a failed start, or on close(), they stop in reverse order.
  const started: (() => Promise<unknown> | unknown)[] = [setup.release];
  const stopStarted = () => closeAll([...started].reverse(), logger);
  try {
    // A port of 0 is chosen now, so the public URL (and the callback URLs the gateway gets) name it.
    const config =
      parts.http && setup.config.PORT === 0 ? { ...setup.config, PORT: await findFreePort() } : setup.config;
    const simulator = usesInProcessGateway(config)
      ? await startInProcessGateway(config, setup.dataDir, logger)
      : undefined;
    if (simulator) started.push(() => simulator.close());

    const gatewayUrls = simulator ? { baseUrl: simulator.url, legacyUrl: simulator.url } : undefined;
    const engine = await createEngine(
      simulator ? { ...config, GATEWAY_API_KEY: simulator.defaultApiKey } : config,
      {
        logger,
        ...(simulator && gatewayUrls
          ? { gatewayUrls, onClockChange: (now) => simulator.clock.set(now) }
          : {}),
      },
    );
    started.push(() => engine.close());
    const { ctx } = engine;

    let server: RunningServer | undefined;
    if (parts.http) {
      server = await startServer(ctx);
      started.push(() => server?.close());
    } else if (config.METRICS_PORT !== undefined) {
      // No HTTP server, so no /metrics there: this process's counters get a port of their own.
      const metrics = await startMetricsServer({
        port: config.METRICS_PORT,
        host: config.HOST,
        token: config.METRICS_TOKEN,
        logger,
      });
      started.push(() => metrics.close());
    }
    if (simulator) {
      await keepInvoiceIdsAhead(simulator, ctx);
      await configureMerchant(simulator, ctx.publicUrl);
      started.push(followClock(ctx.clock, simulator, logger));
    }
    // Beside an HTTP server or workers, the ticks run on a thread of their own (TICK_THREAD, README),
    // built from this process's settings as resolved; a scheduler alone keeps them inline.
    const tickThread =
      parts.scheduler && (parts.http || parts.workers) && ctx.config.TICK_THREAD === "auto"
        ? startTickThread({ config: ctx.config, logger, ...(gatewayUrls ? { gatewayUrls } : {}) })
        : undefined;
    if (tickThread) started.push(() => tickThread.close());
    // The workers' own roles (roles.ts), so this process runs exactly what they would, each
    // restarted when it fails. close() stops the supervisor before the engine (and the tick
    // thread), so the workers it closes are not taken for failed ones, and the tick in hand ends.
    const roles = [
      ...(parts.scheduler
        ? [
            workerRole("scheduler", tickThread ? tickScheduler(() => tickThread.run()) : scheduler, ctx),
            workerRole("status-checks", statusChecks, ctx),
          ]
        : []),
      ...(parts.workers
        ? [
            workerRole("charges", charges, ctx),
            workerRole("invoices", invoices, ctx),
            workerRole("tokens", tokens, ctx),
            workerRole("webhooks", webhooks, ctx),
            workerRole("messages", messages, ctx),
          ]
        : []),
    ];
    const supervisor = await superviseRoles(roles, { logger });
    started.push(() => supervisor.stop());

    // What other processes cannot find from their environment is recorded for them (runtime-file.ts).
    let runtimeFile: string | undefined;
    if (setup.databaseSource === "embedded" || simulator) {
      const claimed = await claimRuntimeRecord(setup.dataDir, {
        pid: process.pid,
        started_at: new Date().toISOString(),
        url: ctx.publicUrl,
        database_url: setup.databaseUrl,
        redis_url: ctx.queues.backend === "redis" ? (config.REDIS_URL ?? null) : null,
        queue_prefix: ctx.queues.prefix,
        gateway: simulator ? { url: simulator.url, api_key: simulator.defaultApiKey } : null,
        clock: config.BILLING_CLOCK,
        queue_backend: ctx.queues.backend,
      });
      if (claimed) {
        runtimeFile = runtimeFileOf(setup.dataDir);
        started.push(() => removeRuntimeRecord(setup.dataDir));
      } else {
        logger.warn(
          { runtimeFile: runtimeFileOf(setup.dataDir) },
          "another running engine is registered in this data directory; the CLI will find that one, not this one",
        );
      }
    }

    let closing: Promise<void> | undefined;
    return {
      url: server?.url ?? ctx.publicUrl,
      ctx,
      setup,
      simulator,
      parts,
      runtimeFile,
      close: () => {
        closing ??= stopStarted();
        return closing;
      },
    };
  } catch (error) {
    await stopStarted().catch(() => undefined);
    throw error;
  }
}
