import { sql } from "drizzle-orm";
import { check, pgTable, smallint } from "drizzle-orm/pg-core";
import { timestamptz, updatedAt } from "./columns.js";

/**
 * The engine's controllable billing clock, shared by all its processes: a single row (id = 1,
 * enforced) holding the current billing time. Absent row means the clock has not been set yet.
 */
export const clockState = pgTable(
  "clock_state",
  {
    id: smallint("id").primaryKey().default(1),
    now: timestamptz("now").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [check("clock_state_singleton", sql`${t.id} = 1`)],
);
