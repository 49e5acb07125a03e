import { sql } from "drizzle-orm";
import { bigint, check, integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns.js";

/**
 * The last run of each repeating job (today the billing tick): when it started and finished on
 * Postgres's own clock (a stall is wall time, whatever the billing clock says), how long it took
 * and how it ended. One row per job, overwritten by every run, read by /readyz, `billing status`
 * and the ops dashboard from any process.
 */
export const tickRuns = pgTable(
  "tick_runs",
  {
    name: text("name").primaryKey(),
    startedAt: timestamptz("started_at").notNull(),
    finishedAt: timestamptz("finished_at"),
    durationMs: integer("duration_ms"),
    /** ok, paused (the gateway breaker is open) or failed. */
    outcome: text("outcome"),
    error: text("error"),
    runs: bigint("runs", { mode: "number" }).notNull().default(1),
  },
  (t) => [
    check("tick_runs_outcome_known", sql`${t.outcome} is null or ${t.outcome} in ('ok', 'paused', 'failed')`),
    check("tick_runs_duration_non_negative", sql`${t.durationMs} is null or ${t.durationMs} >= 0`),
  ],
);
