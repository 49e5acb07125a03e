import type { EngineContext } from "../context/index.js";
import { lastTickRun, type TickRun } from "../scheduler/index.js";
import type { CheckResult } from "./check.js";

/**
 * tick: the billing tick runs. A tick is expected to start at least every
 * max(3 × BILLING_TICK_SECONDS, 60 s) (its stall limit), by Postgres's clock:
 * - failing when none is recorded, when the last one started longer ago than that, or when it
 *   started that long ago and is still running;
 * - warn (still ready) when the last one failed, naming its error: the next one may well succeed;
 * - ok otherwise, with the last duration.
 * Start-up grace: a process up for less than the stall limit does not expect a tick yet, so a
 * freshly started engine (whose scheduler registers the tick as it boots) is not called "not ready"
 * for a tick it has not had the time to run, nor for a stale row a previous run left behind. Only
 * a caller that says how long it has been up gets the grace; `billing status` reports what it sees.
 */

const MIN_STALL_SECONDS = 60;

export function stallLimitSeconds(tickSeconds: number): number {
  return Math.max(3 * tickSeconds, MIN_STALL_SECONDS);
}

export interface TickJudgement {
  tickSeconds: number;
  /** How long the asking process has been up; within the stall limit, no tick is expected yet. */
  uptimeSeconds?: number;
}

function detailOf(run: TickRun | null, stallSeconds: number): Record<string, unknown> {
  return {
    started_at: run?.startedAt.toUTC().toISO() ?? null,
    finished_at: run?.finishedAt?.toUTC().toISO() ?? null,
    age_seconds: run?.ageSeconds ?? null,
    duration_ms: run?.durationMs ?? null,
    outcome: run?.outcome ?? null,
    error: run?.error ?? null,
    runs: run?.runs ?? 0,
    stall_limit_seconds: stallSeconds,
  };
}

/** The rule above, on the last recorded run (null: none). Pure. */
export function judgeTick(run: TickRun | null, { tickSeconds, uptimeSeconds }: TickJudgement): CheckResult {
  const stallSeconds = stallLimitSeconds(tickSeconds);
  const detail = detailOf(run, stallSeconds);
  const stalled = run === null || run.ageSeconds > stallSeconds;
  if (stalled && uptimeSeconds !== undefined && uptimeSeconds < stallSeconds) {
    const seen = run === null ? "no tick recorded yet" : `the last tick started ${run.ageSeconds} s ago`;
    return {
      status: "ok",
      reason: `${seen}; this process started ${Math.floor(uptimeSeconds)} s ago, a tick is expected within ${stallSeconds} s`,
      detail,
    };
  }
  if (run === null) {
    return { status: "failing", reason: "no tick recorded yet: is the scheduler running?", detail };
  }
  if (stalled) {
    const what =
      run.finishedAt === null
        ? `the last tick started ${run.ageSeconds} s ago and is still running`
        : `the last tick started ${run.ageSeconds} s ago`;
    return {
      status: "failing",
      reason: `${what} (a tick is due every ${tickSeconds} s, stalled after ${stallSeconds} s): is the scheduler running?`,
      detail,
    };
  }
  if (run.finishedAt === null) {
    return { status: "ok", reason: `running, started ${run.ageSeconds} s ago`, detail };
  }
  const took = `${run.ageSeconds} s ago, took ${run.durationMs ?? "?"} ms`;
  if (run.outcome === "failed") {
    return {
      status: "warn",
      reason: `the last tick failed (${took}): ${run.error ?? "no error recorded"}`,
      detail,
    };
  }
  const paused = run.outcome === "paused" ? " (collection paused by the circuit breaker)" : "";
  return { status: "ok", reason: `last tick ${took}${paused}`, detail };
}

export async function tickCheck(
  ctx: Pick<EngineContext, "db" | "config">,
  uptimeSeconds: number | undefined,
): Promise<CheckResult> {
  const run = await lastTickRun(ctx.db.$client);
  return judgeTick(run, {
    tickSeconds: ctx.config.BILLING_TICK_SECONDS,
    ...(uptimeSeconds === undefined ? {} : { uptimeSeconds }),
  });
}
