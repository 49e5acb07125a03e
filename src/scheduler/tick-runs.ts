import type { DateTime } from "luxon";
import type { Sql } from "postgres";
import { pgInstant, pgInstantOrNull, pgInteger } from "../db/index.js";

/**
 * The last run of a repeating job in tick_runs, on Postgres's clock: a stall is wall time, whatever
 * the billing clock says. Written by the process that runs the job, read by health checks and the
 * ops dashboard in any process.
 */

export type TickOutcome = "ok" | "paused" | "failed";

export interface TickRun {
  name: string;
  startedAt: DateTime;
  finishedAt: DateTime | null;
  durationMs: number | null;
  outcome: TickOutcome | null;
  error: string | null;
  runs: number;
  /** Seconds since it started, by Postgres's clock at the read. */
  ageSeconds: number;
}

/** The billing tick's name in tick_runs. */
export const BILLING_TICK = "billing";

/** A run has started: its finish is cleared, so a tick that never ends shows as running. */
export async function recordTickStart(sql: Sql, name: string): Promise<void> {
  await sql`
    insert into tick_runs (name, started_at) values (${name}, now())
    on conflict (name) do update
      set started_at = now(), finished_at = null, duration_ms = null, outcome = null, error = null,
          runs = tick_runs.runs + 1`;
}

export async function recordTickEnd(
  sql: Sql,
  name: string,
  end: { outcome: TickOutcome; durationMs: number; error?: string },
): Promise<void> {
  await sql`
    update tick_runs
    set finished_at = now(), duration_ms = ${Math.max(0, Math.round(end.durationMs))},
        outcome = ${end.outcome}, error = ${end.error ?? null}
    where name = ${name}`;
}

interface TickRunRow {
  name: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  outcome: TickOutcome | null;
  error: string | null;
  runs: string;
  age_seconds: string;
}

/** The last run of `name`, or null when it never ran. */
export async function lastTickRun(sql: Sql, name: string = BILLING_TICK): Promise<TickRun | null> {
  const [row] = await sql<TickRunRow[]>`
    select name, started_at::text, finished_at::text, duration_ms, outcome, error, runs::text,
           floor(extract(epoch from now() - started_at))::text as age_seconds
    from tick_runs where name = ${name}`;
  if (!row) return null;
  return {
    name: row.name,
    startedAt: pgInstant(row.started_at),
    finishedAt: pgInstantOrNull(row.finished_at),
    durationMs: row.duration_ms,
    outcome: row.outcome,
    error: row.error,
    runs: pgInteger(row.runs),
    ageSeconds: pgInteger(row.age_seconds),
  };
}
