import type { Command } from "commander";
import type { Actions } from "../actions.js";
import { integer } from "../options.js";

/** The engine's parts as separate long-running processes (actions/processes.ts). */
export function registerProcesses(program: Command, action: Actions): void {
  const load = () => import("../actions/processes.js");

  program
    .command("serve")
    .description("run the HTTP server (health, gateway callbacks, merchant API)")
    .action(action(load, "serve"));

  program
    .command("worker")
    .description("run the workers: charges, invoices, token deactivation")
    .action(action(load, "worker"));

  program
    .command("scheduler")
    .description(
      "run the billing scheduler (a tick every BILLING_TICK_SECONDS); --once runs one tick and exits",
    )
    .option("--once", "run one billing tick now, print what it did, and exit")
    .action(action(load, "scheduler"));

  program
    .command("gateway")
    .description("run the gateway simulator alone (as `npm run gateway`); point GATEWAY_BASE_URL at it")
    .option("--port <n>", "port, 0 for any free one (default GATEWAY_SIM_PORT, 4010)", integer(0, 65_535))
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--seed <n>", "seed of ids, tokens and fault rolls (default random)", integer(0, 2 ** 32 - 1))
    .action(action(load, "gateway"));
}
