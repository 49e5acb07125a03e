import type { Command } from "commander";
import type { Actions } from "../actions.js";

export function registerClock(program: Command, action: Actions): void {
  const clock = program
    .command("clock")
    .description("the engine's controllable billing clock (BILLING_CLOCK=controllable)");
  const load = () => import("../actions/clock.js");

  clock.command("show").description("print the billing time").action(action(load, "show"));

  clock
    .command("advance")
    .description("move the billing time forwards, e.g. `billing clock advance 1mo` or `P1M`")
    .argument("<duration>", "ISO 8601 duration (P1M, P1D, PT12H) or 1y, 1mo, 2w, 30d, 12h, 15min, 30s")
    .action(action(load, "advance"));

  clock
    .command("set")
    .description("put the billing time at an instant (backwards too)")
    .argument("<time>", "ISO 8601 timestamp with an offset, e.g. 2026-03-01T00:00:00Z")
    .action(action(load, "set"));
}
