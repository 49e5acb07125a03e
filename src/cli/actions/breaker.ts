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

export async function status(cli: Cli, _options: unknown, command: Command): Promise<void> {
  const shown = present(await cli.withDatabase(({ db }) => breakerState(db.$client)));
  cli.output(command).result(shown, () => fields(shown));
}

export async function resume(cli: Cli, options: { note?: string }, command: Command): Promise<void> {
  const { resumed, state } = await cli.withDatabase((ctx) =>
    resumeCollection(ctx, { actor: CLI_ACTOR, note: options.note }),
  );
  const shown = { resumed, ...present(state) };
  cli.output(command).result(shown, () => fields(shown));
}
