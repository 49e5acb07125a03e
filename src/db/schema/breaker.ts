import { sql } from "drizzle-orm";
import { bigserial, check, index, pgTable, smallint, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns.js";
import { breakerSignal } from "./enums.js";

/**
 * The gateway circuit breaker (breaker/): a single row (id = 1). Open (opened_at set, closed_at
 * null) means collection is paused for every process until an operator resumes it; each opening
 * overwrites the previous one, whose history stays in the event log. Times are Postgres's own.
 */
export const gatewayBreaker = pgTable(
  "gateway_breaker",
  {
    id: smallint("id").primaryKey().default(1),
    openedAt: timestamptz("opened_at"),
    reason: text("reason"),
    signal: breakerSignal("signal"),
    closedAt: timestamptz("closed_at"),
    closedBy: text("closed_by"),
  },
  (t) => [
    check("gateway_breaker_singleton", sql`${t.id} = 1`),
    check("gateway_breaker_opened_with_reason", sql`(${t.openedAt} is null) = (${t.reason} is null)`),
  ],
);

/**
 * Signs of a systemic gateway failure, one row each (a card refused with -7, a payment we sent that
 * CheckStatus does not know, an authentication refusal, a status check that failed), counted over
 * the breaker's window. Rows older than the window are only history; the count is served by the
 * (signal, created_at) index.
 */
export const gatewaySignals = pgTable(
  "gateway_signals",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    signal: breakerSignal("signal").notNull(),
    /** What it is about: the payment method refused, or the attempt not found or not checked. */
    subject: uuid("subject"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [index("gateway_signals_window_idx").on(t.signal, t.createdAt)],
);
