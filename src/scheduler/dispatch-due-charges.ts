import type { DateTime } from "luxon";
import type { PendingQuery, Row } from "postgres";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import { cutoffOf, type Lease, stampAndHandOut } from "./hand-out.js";

/**
 * Rule: Postgres holds the schedule, Redis only the hints. Every charge waiting for an attempt
 * (scheduled or retrying) whose next_attempt_at has come is handed to the queue once (hand-out.ts):
 * first those never handed out (the partial index charges_undispatched_idx, in (next_attempt_at, id)
 * order), then those handed out before the lease's cutoff (charges_dispatched_idx). Retries are due
 * times in this table, not long BullMQ delays, so a Redis wipe, a restart or a jump of the
 * controllable clock all end the same way: the next tick finds the due charges and hands them out.
 */
export async function dispatchDueCharges(
  ctx: Pick<EngineContext, "db" | "queues" | "logger" | "config">,
  options: { now: DateTime; batchSize: number; lease: Lease },
): Promise<number> {
  const { batchSize, lease, now } = options;
  const fresh = await stampAndHandOut(
    ctx,
    batchSize,
    (sql) => sql`
      select id ${dueUndispatched(sql, now)}
      order by next_attempt_at, id
      limit ${batchSize}
      for update skip locked`,
  );
  const again = await stampAndHandOut(
    ctx,
    batchSize,
    (sql) => sql`
      select id ${dueAgain(sql, now, cutoffOf(sql, lease))}
      order by dispatched_at
      limit ${batchSize}
      for update skip locked`,
  );
  return fresh + again;
}

/** Due charges never handed out (charges_undispatched_idx); work-probe.ts asks it too. */
export function dueUndispatched(sql: SqlRunner, now: DateTime): PendingQuery<Row[]> {
  return sql`
    from charges
    where status in ('scheduled', 'retrying') and next_attempt_at is not null
      and dispatched_at is null and next_attempt_at <= ${now.toUTC().toISO()}::timestamptz`;
}

/** Due charges handed out before the lease's cutoff (charges_dispatched_idx). */
export function dueAgain(sql: SqlRunner, now: DateTime, cutoff: PendingQuery<Row[]>): PendingQuery<Row[]> {
  return sql`
    from charges
    where status in ('scheduled', 'retrying') and dispatched_at is not null
      and dispatched_at < ${cutoff} and next_attempt_at <= ${now.toUTC().toISO()}::timestamptz`;
}
