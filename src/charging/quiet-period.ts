import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Config } from "../config/index.js";

/**
 * The quiet period of an attempt: how long after it was sent no gateway call can still be running.
 * Past it, an `in_flight` attempt belongs to a worker that died (no live worker holds a call that
 * long), and a CheckStatus "not found" means the gateway never took the payment. Before it, both
 * could be a call still on its way, so the worker leaves the attempt alone.
 *
 * A call lasts at most GATEWAY_TIMEOUT_MS (GetnewPayment is never repeated by the client); the
 * period doubles it and adds a margin for the gateway finishing a request after we gave up.
 *
 * Measured on Postgres's clock against charge_attempts.created_at, deliberately not on the billing
 * clock: whether a process is still alive is a matter of real elapsed time, and a controllable
 * billing clock jumping a month while a call is in flight must not make that call look abandoned.
 */
const MARGIN_MS = 30_000;

export function defaultQuietPeriodMs(config: Pick<Config, "GATEWAY_TIMEOUT_MS">): number {
  return 2 * config.GATEWAY_TIMEOUT_MS + MARGIN_MS;
}

/** The quiet period in seconds, refusing one that is not a duration. */
export function quietSeconds(quietPeriodMs: number): number {
  if (!Number.isFinite(quietPeriodMs) || quietPeriodMs < 0) {
    throw new RangeError(`quietPeriodMs must be >= 0, got ${quietPeriodMs}`);
  }
  return quietPeriodMs / 1000;
}

/** True when the attempt's row (its `created_at` column) is older than the quiet period. */
export function sentBefore(createdAt: PgColumn, quietPeriodMs: number): SQL<boolean> {
  return sql<boolean>`${createdAt} <= now() - make_interval(secs => ${quietSeconds(quietPeriodMs)}::double precision)`;
}
