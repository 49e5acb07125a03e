import type { Command } from "commander";
import { type BreakerState, breakerState, resumeCollection } from "../../breaker/index.js";
import { CLI_ACTOR, type Cli } from "../cli.js";
import { fields } from "../output.js";

/**
 * The gateway circuit breaker (src/breaker): `status` shows whether collection is paused and why;
 * `resume` closes it once an operator has checked the gateway (key, environment, its state).
 */
function present(state: BreakerState) {
  return {
    state: state.open ? "open" : "closed",
    reason: state.reason,
    signal: state.signal,
    opened_at: state.openedAt?.toUTC().toISO() ?? null,
    closed_at: state.closedAt?.toUTC().toISO() ?? null,
    closed_by: state.closedBy,
  };
}

export function registerBreaker(program: Command, cli: Cli): void {
  const breaker = program
    .command("breaker")
    .description("the gateway circuit breaker: collection pauses by itself on systemic gateway failure");

  breaker
    .command("status")
    .description("show whether collection is paused, and why")
    .action(async (_options, command: Command) => {
      const shown = present(await cli.withDatabase(({ db }) => breakerState(db.$client)));
      cli.output(command).result(shown, () => fields(shown));
    });

  breaker
    .command("resume")
    .description("close the breaker and resume collection, after checking the gateway")
    .option("--note <text>", "what was checked or fixed, kept in the event log")
    .action(async (options: { note?: string }, command: Command) => {
      const { resumed, state } = await cli.withDatabase((ctx) =>
        resumeCollection(ctx, { actor: CLI_ACTOR, note: options.note }),
      );
      const shown = { resumed, ...present(state) };
      cli.output(command).result(shown, () => fields(shown));
    });
}
