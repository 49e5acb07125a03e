import type { Command } from "commander";
import { Duration } from "luxon";
import { hasNegativePart, toInstant } from "../../clock/index.js";
import type { Config } from "../../config/index.js";
import { ClockBackwardsError, isSharedClock, type SharedClock } from "../../context/index.js";
import type { Cli } from "../cli.js";
import { CliError, EXIT, optionError } from "../errors.js";
import { fields } from "../output.js";
import type { DatabaseContext } from "../session.js";

/**
 * The engine's controllable billing clock (BILLING_CLOCK=controllable), kept in the database's
 * clock_state row and so shared by every process of the engine: a running engine sees a move on
 * its next refresh (the zero-config runtime refreshes every second and moves its in-process
 * simulator with it). When the gateway is our simulator (GET /_sim/clock answers), it is moved to
 * the same instant too, so card tokens, bearers and settlement age with the billing clock.
 *
 * The clock does not go backwards by accident: a running engine has already billed, retried and
 * sent notices up to the current time, and moving before it makes that work lie in its future.
 * `set` refuses an earlier time unless --force (and then warns); `advance` only goes forwards.
 */

const SHORTHAND = /^(\d+)(y|mo|w|d|h|min|s)$/;
const UNITS = {
  y: "years",
  mo: "months",
  w: "weeks",
  d: "days",
  h: "hours",
  min: "minutes",
  s: "seconds",
} as const;

/** An ISO 8601 duration ("P1M", "PT12H") or a shorthand: 1y, 1mo, 2w, 30d, 12h, 15min, 30s. */
export function parseDuration(text: string): Duration {
  const shorthand = SHORTHAND.exec(text.trim());
  const duration = shorthand
    ? Duration.fromObject({ [UNITS[shorthand[2] as keyof typeof UNITS]]: Number(shorthand[1]) })
    : Duration.fromISO(text.trim());
  if (!duration.isValid || duration.toMillis() <= 0 || hasNegativePart(duration)) {
    throw optionError(
      "DURATION",
      `${JSON.stringify(text)} is not a forward duration; use ISO 8601 (P1M, P1D, PT12H) or 1mo, 30d, 12h, 15min`,
    );
  }
  return duration;
}

function sharedClockOf(ctx: DatabaseContext): SharedClock {
  if (!isSharedClock(ctx.clock)) {
    throw new CliError(
      "the billing clock is the system clock (BILLING_CLOCK=system); it can only be moved when the engine runs " +
        "with BILLING_CLOCK=controllable (the zero-config default)",
      EXIT.usage,
    );
  }
  return ctx.clock;
}

type SimulatorMove = "moved" | "not_a_simulator" | "no_gateway";

/** Moves the gateway's clock to `now` when the gateway is our simulator. */
async function moveSimulator(config: Config, now: string): Promise<SimulatorMove> {
  const base = config.GATEWAY_BASE_URL?.replace(/\/+$/, "");
  if (!base) return "no_gateway";
  const probe = await fetch(`${base}/_sim/clock`, { signal: AbortSignal.timeout(3_000) }).catch(
    () => undefined,
  );
  if (!probe?.ok) return "not_a_simulator";
  const moved = await fetch(`${base}/_sim/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ set: now }),
    signal: AbortSignal.timeout(3_000),
  });
  if (!moved.ok)
    throw new CliError(`the simulator at ${base} refused to move its clock: ${await moved.text()}`);
  return "moved";
}

/** Moves the shared clock with `move`, then the simulator's to the same instant, and prints both. */
async function report(
  cli: Cli,
  command: Command,
  move: (clock: SharedClock) => Promise<unknown>,
): Promise<{ now: string | null; previous: string | null }> {
  const shown = await cli.withDatabase(async (ctx) => {
    const shared = sharedClockOf(ctx);
    const previous = (await shared.refresh()).toISO();
    await move(shared);
    const now = shared.now().toISO();
    const simulator = now === previous ? null : await moveSimulator(ctx.config, now ?? "");
    return { now, previous, simulator };
  });
  cli.output(command).result(shown, () => fields(shown));
  return shown;
}

export async function show(cli: Cli, _options: unknown, command: Command): Promise<void> {
  await report(cli, command, async () => {});
}

/** The duration is read here rather than by commander, so reading a command line needs no luxon. */
export async function advance(cli: Cli, text: string, _options: unknown, command: Command): Promise<void> {
  const duration = parseDuration(text);
  await report(cli, command, (shared) => shared.advance(duration));
}

export async function set(
  cli: Cli,
  text: string,
  options: { force?: boolean },
  command: Command,
): Promise<void> {
  let time: ReturnType<typeof toInstant>;
  try {
    time = toInstant(text);
  } catch {
    throw optionError("TIME", `${JSON.stringify(text)} is not an ISO 8601 timestamp`);
  }
  const backwards = options.force === true;
  const shown = await report(cli, command, (shared) => shared.set(time, { backwards })).catch(
    (error: unknown) => {
      if (!(error instanceof ClockBackwardsError)) throw error;
      throw new CliError(
        `the billing clock is at ${error.current.toISO()}, and ${error.asked.toISO()} is before it: ` +
          "what the engine billed up to now would lie in its future. `billing clock set --force` moves it back",
      );
    },
  );
  if (shown.now !== null && shown.previous !== null && shown.now < shown.previous) {
    cli
      .output(command)
      .note(
        `warning: moved the billing clock back from ${shown.previous} to ${shown.now}; ` +
          "what the engine did after that stays done, and what it scheduled comes due when the clock catches up",
      );
  }
}
