import type { Command } from "commander";
import type { Actions } from "../actions.js";

export function registerBreaker(program: Command, action: Actions): void {
  const breaker = program
    .command("breaker")
    .description("the gateway circuit breaker: collection pauses by itself on systemic gateway failure");
  const load = () => import("../actions/breaker.js");

  breaker
    .command("status")
    .description("show whether collection is paused, and why")
    .action(action(load, "status"));

  breaker
    .command("resume")
    .description("close the breaker and resume collection, after checking the gateway")
    .option("--note <text>", "what was checked or fixed, kept in the event log")
    .action(action(load, "resume"));
}
