import type { Command } from "commander";
import { runTick } from "../../app/index.js";
import { loadConfig } from "../../config/index.js";
import { createLogger, type Logger } from "../../logger/index.js";
import { type Closable, gracefulShutdown } from "../../queue/index.js";
import type { EngineParts } from "../../runtime/index.js";
import { runWaitingStatusChecks } from "../../scheduler/index.js";
import type { Cli } from "../cli.js";
import { fields } from "../output.js";

/**
 * The engine's parts as separate long-running processes (`npm start` runs them all in one). Each
 * prints what it started (one JSON document with --json), logs to stderr, and on SIGTERM/SIGINT
 * stops gracefully: workers finish the jobs in hand before the database closes.
 */

/** A logger for a long-running process: LOG_LEVEL (default info), on stderr. */
function processLogger(cli: Cli, name: string): Logger {
  return createLogger({ level: cli.io.env.LOG_LEVEL || "info", name }, cli.io.stderr);
}

/** Resolves with the exit code once a signal has closed `closables` (gracefulShutdown's rules). */
function untilStopped(closables: Closable[], logger: Logger, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    gracefulShutdown(closables, { logger, timeoutMs, exit: resolve });
  });
}

async function runParts(cli: Cli, command: Command, name: string, parts: EngineParts): Promise<void> {
  const logger = processLogger(cli, name);
  // Loaded here: the server, the simulator and the workers are heavy to import for `scheduler --once`.
  const { describeEngineProcess, engineSummary, startEngineProcess } = await import("../../runtime/index.js");
  const engine = await startEngineProcess({ env: cli.io.env, logger, parts });
  cli.output(command).result(engineSummary(engine), () => describeEngineProcess(engine).join("\n"));
  cli.exitCode = await untilStopped([engine], logger, engine.ctx.config.SHUTDOWN_TIMEOUT_MS);
}

export function serve(cli: Cli, _options: unknown, command: Command): Promise<void> {
  return runParts(cli, command, "billing-serve", { http: true, scheduler: false, workers: false });
}

export function worker(cli: Cli, _options: unknown, command: Command): Promise<void> {
  return runParts(cli, command, "billing-worker", { http: false, scheduler: false, workers: true });
}

export async function scheduler(cli: Cli, options: { once?: boolean }, command: Command): Promise<void> {
  if (!options.once) {
    return runParts(cli, command, "billing-scheduler", { http: false, scheduler: true, workers: false });
  }
  // The same tick the scheduler process runs (billing, webhooks, expiring-card notices), then the
  // status checks it handed out (refunds, late payments, enrolments), run here: no worker may run.
  const result = await cli.withEngine(async (ctx) => ({
    ...(await runTick(ctx)),
    ...(await runWaitingStatusChecks(ctx)),
  }));
  const shown = {
    charges_created: result.chargesCreated,
    charges_enqueued: result.chargesEnqueued,
    reenqueued: result.reenqueued,
    invoices_enqueued: result.invoicesEnqueued,
    token_deactivations_enqueued: result.tokenDeactivationsEnqueued,
    subscriptions_canceled: result.subscriptionsCanceled,
    refunds_reconciled: result.refundsReconciled,
    late_checks: result.lateChecks,
    late_payments_found: result.latePaymentsFound,
    duplicates_refunded: result.duplicatesRefunded,
    enrollments_swept: result.enrollmentsSwept,
    paused: result.paused,
    webhooks_dispatched: result.webhooksDispatched,
    expiring_notices: result.expiringNotices,
  };
  cli.output(command).result(shown, () => fields(shown));
}

export async function gateway(
  cli: Cli,
  options: { port?: number; host: string; seed?: number },
  command: Command,
): Promise<void> {
  const config = loadConfig(cli.io.env);
  const logger = processLogger(cli, "gateway-simulator");
  // Chosen here rather than inside the simulator so it can be printed and a run repeated.
  const seed: number = options.seed ?? Math.floor(Math.random() * 2 ** 32);
  const { startSimulator } = await import("../../simulator/index.js");
  const simulator = await startSimulator({
    port: options.port ?? config.GATEWAY_SIM_PORT,
    host: options.host,
    defaultApiKey: config.GATEWAY_SIM_API_KEY,
    seed,
    logger,
  });
  const shown = { url: simulator.url, api_key: simulator.defaultApiKey, seed };
  cli
    .output(command)
    .result(shown, () =>
      [
        `gateway simulator listening on ${simulator.url}`,
        `default merchant api key: ${simulator.defaultApiKey}`,
        `seed: ${seed}`,
      ].join("\n"),
    );
  cli.exitCode = await untilStopped([simulator], logger, config.SHUTDOWN_TIMEOUT_MS);
}
