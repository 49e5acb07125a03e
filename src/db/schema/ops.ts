import { sql } from "drizzle-orm";
import { bigint, char, check, date, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
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

/**
 * Collections of closed days, per merchant time zone and currency (ops/closed-days.ts): a day whose
 * end is more than a day behind the billing clock gains no paid charge or declined attempt any
 * more (both carry the billing time of their settlement), so the dashboard computes it once and
 * reads it back, instead of scanning a month of charges on every cold view.
 */
export const opsCollectionDays = pgTable(
  "ops_collection_days",
  {
    timezone: text("timezone").notNull(),
    currency: char("currency", { length: 3 }).notNull(),
    day: date("day").notNull(),
    paidCount: bigint("paid_count", { mode: "number" }).notNull(),
    paidAmountMinor: bigint("paid_amount_minor", { mode: "number" }).notNull(),
    declinedCount: bigint("declined_count", { mode: "number" }).notNull(),
    declinedAmountMinor: bigint("declined_amount_minor", { mode: "number" }).notNull(),
    computedAt: timestamptz("computed_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: "ops_collection_days_pkey", columns: [t.timezone, t.currency, t.day] }),
    check(
      "ops_collection_days_non_negative",
      sql`${t.paidCount} >= 0 and ${t.paidAmountMinor} >= 0 and ${t.declinedCount} >= 0 and ${t.declinedAmountMinor} >= 0`,
    ),
  ],
);
