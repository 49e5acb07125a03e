import type { DateTime } from "luxon";
import type { PendingQuery, Row } from "postgres";
import type { BreakerSignal } from "../billing/index.js";
import { pgInstantOrNull, type SqlRunner } from "../db/index.js";

/**
 * The gateway circuit breaker as every process sees it: one row in Postgres, so a breaker opened by
 * one worker pauses them all, and survives restarts and a lost Redis. Open means opened and not
 * closed since.
 */
export interface BreakerState {
  readonly open: boolean;
  readonly openedAt: DateTime | null;
  readonly reason: string | null;
  readonly signal: BreakerSignal | null;
  readonly closedAt: DateTime | null;
  readonly closedBy: string | null;
}

export interface BreakerRow {
  opened_at: string | null;
  reason: string | null;
  signal: BreakerSignal | null;
  closed_at: string | null;
  closed_by: string | null;
}

export const CLOSED: BreakerState = {
  open: false,
  openedAt: null,
  reason: null,
  signal: null,
  closedAt: null,
  closedBy: null,
};

export function stateOf(row: BreakerRow | undefined): BreakerState {
  if (!row) return CLOSED;
  return {
    open: row.opened_at !== null && row.closed_at === null,
    openedAt: pgInstantOrNull(row.opened_at),
    reason: row.reason,
    signal: row.signal,
    closedAt: pgInstantOrNull(row.closed_at),
    closedBy: row.closed_by,
  };
}

export async function breakerState(sql: SqlRunner): Promise<BreakerState> {
  const [row] = await sql<BreakerRow[]>`
    select opened_at, reason, signal, closed_at, closed_by from gateway_breaker where id = 1`;
  return stateOf(row);
}

/** The breaker's row while it is open; the tick asks for it with its other questions. */
export function openBreaker(sql: SqlRunner): PendingQuery<Row[]> {
  return sql`from gateway_breaker where id = 1 and opened_at is not null and closed_at is null`;
}

/** One indexed read, for the hot paths (a charge batch, a tick) that only need yes or no. */
export async function collectionPaused(sql: SqlRunner): Promise<boolean> {
  const [row] = await sql<{ paused: boolean }[]>`select exists (select 1 ${openBreaker(sql)}) as paused`;
  return row?.paused === true;
}
