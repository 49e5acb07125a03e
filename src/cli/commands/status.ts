import type { Command } from "commander";
import type { Actions } from "../actions.js";

export function registerStatus(program: Command, action: Actions): void {
  program
    .command("status")
    .description("whether the engine can collect: database, queue, gateway, billing tick, circuit breaker")
    .action(action(() => import("../actions/status.js"), "run"));
}
