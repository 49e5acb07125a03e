import type { PendingQuery, Row } from "postgres";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import { enqueueChargeBatches, QUEUE_NAMES } from "../queue/index.js";

/**
 * Rule: Postgres records which charges were handed to the queue (charges.dispatched_at, on
 * Postgres's real clock), so a tick hands out only what it has not handed out yet or what was
 * handed out longer ago than the lease (CHARGE_REDISPATCH_AFTER_SECONDS) and still waits: a job
 * that was lost, or is stuck behind a backlog. A charge is never re-locked and re-checked on every
 * tick while its job waits. When the charge queue holds no job at all (Redis wiped, or every job
 * gone), no dispatch can still be waiting in it: the lease is void and everything due is handed out
 * again at once. Handing a charge out twice is harmless: the claim is a compare-and-set.
 *
 * Jobs carry CHARGE_BATCH_SIZE charges each and are added with one addBulk per group. An add that
 * fails is logged, not thrown: the dispatch is recorded, so the lease hands the charges out again.
 */
export interface Lease {
  /** Charges handed out before this instant (Postgres timestamptz text) are handed out again. */
  readonly cutoff: string;
  /** The queue was empty: every earlier dispatch is void. */
  readonly queueLost: boolean;
}

type HandOutCtx = Pick<EngineContext, "db" | "queues" | "logger" | "config">;

/**
 * The lease in seconds: none when the charge queue holds no job. It reads only the queue; the
 * cutoff is dated on PostgreSQL's clock by the tick's one question (work-probe.ts), with leaseCutoff.
 */
export async function leaseSeconds(
  ctx: HandOutCtx,
  redispatchAfterMs: number,
): Promise<{ seconds: number; queueLost: boolean }> {
  const counts = await ctx.queues
    .queue(QUEUE_NAMES.charges)
    .getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children");
  const queueLost = Object.values(counts).every((n) => n === 0);
  return { seconds: queueLost ? 0 : redispatchAfterMs / 1000, queueLost };
}

/** Now less the lease, on PostgreSQL's clock. */
export function leaseCutoff(sql: SqlRunner, seconds: number): PendingQuery<Row[]> {
  return sql`(now() - make_interval(secs => ${seconds}::double precision))`;
}

/** A lease's cutoff, for the sources the charge sweeps share with the tick's question. */
export function cutoffOf(sql: SqlRunner, lease: Lease): PendingQuery<Row[]> {
  return sql`${lease.cutoff}::timestamptz`;
}

/**
 * Stamps the charges `select` picks (a SELECT of charge ids, LIMIT batch, FOR UPDATE SKIP LOCKED so
 * concurrent ticks split them) as dispatched now, in one UPDATE, until a batch comes back short,
 * handing each batch to the queue as soon as it is stamped. Returns how many were handed out.
 */
export async function stampAndHandOut(
  ctx: HandOutCtx,
  batchSize: number,
  select: (sql: SqlRunner) => PendingQuery<Row[]>,
): Promise<number> {
  const sql = ctx.db.$client;
  let handed = 0;
  for (;;) {
    const rows = await sql<{ id: string }[]>`
      update charges set dispatched_at = now()
      from (${select(sql)}) as picked
      where charges.id = picked.id
      returning charges.id`;
    handed += await handOut(
      ctx,
      rows.map((row) => row.id),
    );
    if (rows.length < batchSize) return handed;
  }
}

/** Adds jobs of CHARGE_BATCH_SIZE charges for these ids; returns how many charges were handed out. */
export async function handOut(ctx: HandOutCtx, chargeIds: readonly string[]): Promise<number> {
  if (chargeIds.length === 0) return 0;
  const size = ctx.config.CHARGE_BATCH_SIZE;
  const batches: string[][] = [];
  for (let i = 0; i < chargeIds.length; i += size) batches.push(chargeIds.slice(i, i + size));
  try {
    await enqueueChargeBatches(ctx.queues, batches);
    return chargeIds.length;
  } catch (err) {
    ctx.logger.warn(
      { err, charges: chargeIds.length },
      "could not enqueue charges; their lease hands them out again",
    );
    return 0;
  }
}
