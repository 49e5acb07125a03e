import type { Command } from "commander";
import { type CheckResult, type Readiness, readiness } from "../../health/index.js";
import type { Cli } from "../cli.js";
import { EXIT } from "../errors.js";
import { fields, table } from "../output.js";

/**
 * `billing status`: the engine's readiness at a glance, the same checks and document as /readyz
 * (src/health), then the breaker and the last tick. Exit code 0 when ready, 1 when not (paused
 * included), so a script or a cron can act on it. No start-up grace: the tick is judged as it is.
 */

function text(value: unknown): string {
  return value === null || value === undefined ? "-" : String(value);
}

function lastTick(check: CheckResult): string {
  const tick = check.detail;
  if (!tick) return `unknown: ${check.reason}`;
  if (tick.started_at === null) return "none recorded";
  const started = `started ${text(tick.started_at)} (${text(tick.age_seconds)} s ago)`;
  if (tick.finished_at === null) return `${started}, still running`;
  const error = tick.error === null ? "" : `: ${text(tick.error)}`;
  return `${started}, ${text(tick.outcome)} in ${text(tick.duration_ms)} ms${error}`;
}

function breaker(check: CheckResult): string {
  const state = check.detail;
  if (!state) return `unknown: ${check.reason}`;
  return state.state === "open" ? check.reason : text(state.state);
}

function human(result: Readiness): string {
  const summary = {
    status: result.status,
    breaker: breaker(result.checks.gateway_breaker),
    "last tick": lastTick(result.checks.tick),
  };
  const rows = Object.entries(result.checks).map(([check, { status, reason }]) => ({
    check,
    status,
    detail: reason,
  }));
  return `${fields(summary)}\n\n${table(rows, ["check", "status", "detail"])}`;
}

export async function run(cli: Cli, _options: unknown, command: Command): Promise<void> {
  const result = await cli.withEngine((ctx) => readiness(ctx));
  cli.output(command).result(result, () => human(result));
  if (result.status !== "ready") cli.exitCode = EXIT.failed;
}
