import type { Command } from "commander";
import { runTick } from "../../app/index.js";
import { loadConfig } from "../../config/index.js";
import { createLogger, type Logger } from "../../logger/index.js";
import { type Closable, gracefulShutdown } from "../../queue/index.js";
import type { EngineParts } from "../../runtime/index.js";
import type { Cli } from "../cli.js";
import { integer } from "../options.js";
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
  // Loaded here: the server, the simulator and the workers are heavy to import for other commands.
  const { describeEngineProcess, engineSummary, startEngineProcess } = await import("../../runtime/index.js");
  const engine = await startEngineProcess({ env: cli.io.env, logger, parts });
  cli.output(command).result(engineSummary(engine), () => describeEngineProcess(engine).join("\n"));
  cli.exitCode = await untilStopped([engine], logger, engine.ctx.config.SHUTDOWN_TIMEOUT_MS);
}

export function registerProcesses(program: Command, cli: Cli): void {
  program
    .command("serve")
    .description("run the HTTP server (health, gateway callbacks, merchant API)")
    .action((_options, command: Command) =>
      runParts(cli, command, "billing-serve", { http: true, scheduler: false, workers: false }),
    );

  program
    .command("worker")
    .description("run the workers: charges, invoices, token deactivation")
    .action((_options, command: Command) =>
      runParts(cli, command, "billing-worker", { http: false, scheduler: false, workers: true }),
    );

  program
    .command("scheduler")
    .description(
      "run the billing scheduler (a tick every BILLING_TICK_SECONDS); --once runs one tick and exits",
    )
    .option("--once", "run one billing tick now, print what it did, and exit")
    .action(async (options, command: Command) => {
      if (!options.once) {
        return runParts(cli, command, "billing-scheduler", { http: false, scheduler: true, workers: false });
      }
      // The same tick the scheduler process runs: billing, refunds, webhooks, expiring-card notices.
      const result = await cli.withEngine((ctx) => runTick(ctx));
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
    });

  program
    .command("gateway")
    .description("run the gateway simulator alone (as `npm run gateway`); point GATEWAY_BASE_URL at it")
    .option("--port <n>", "port, 0 for any free one (default GATEWAY_SIM_PORT, 4010)", integer(0, 65_535))
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--seed <n>", "seed of ids, tokens and fault rolls (default random)", integer(0, 2 ** 32 - 1))
    .action(async (options, command: Command) => {
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
    });
}
