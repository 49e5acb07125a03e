import type { PendingQuery, Row } from "postgres";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import { cutoffOf, type Lease, stampAndHandOut } from "./hand-out.js";

/**
 * Rule: an open attempt is never forgotten. A charge in `processing` whose open attempt (in_flight
 * or unknown, through the partial unique index charge_attempts_one_open_per_charge) was sent longer
 * ago than `stuckAfterMs` belongs to a worker that crashed, or to a job whose BullMQ retries ran out
 * while reconciling. It is handed to the queue again (hand-out.ts, once per lease), and the charge
 * job reconciles the attempt with CheckStatus before anything else: handing it out never sends a
 * second payment blindly.
 *
 * Age is measured on Postgres's clock (see charging/quiet-period.ts).
 */
export async function dispatchStuckCharges(
  ctx: Pick<EngineContext, "db" | "queues" | "logger" | "config">,
  options: { batchSize: number; stuckAfterMs: number; lease: Lease },
): Promise<number> {
  const { batchSize, lease } = options;
  const stuckSeconds = options.stuckAfterMs / 1000;
  return stampAndHandOut(
    ctx,
    batchSize,
    (sql) => sql`
      select ch.id ${stuck(sql, stuckSeconds, cutoffOf(sql, lease))}
      order by ch.id
      limit ${batchSize}
      for update of ch skip locked`,
  );
}

/** Charges whose open attempt is older than `stuckSeconds`; work-probe.ts asks it too. */
export function stuck(
  sql: SqlRunner,
  stuckSeconds: number,
  cutoff: PendingQuery<Row[]>,
): PendingQuery<Row[]> {
  return sql`
    from charge_attempts a
    join charges ch on ch.id = a.charge_id
    where a.status in ('in_flight', 'unknown') and ch.status = 'processing'
      and a.created_at <= now() - make_interval(secs => ${stuckSeconds}::double precision)
      and (ch.dispatched_at is null or ch.dispatched_at < ${cutoff})`;
}
