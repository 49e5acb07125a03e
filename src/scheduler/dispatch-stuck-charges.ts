import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { EngineContext } from "../app/index.js";
import { ensureChargeJob, sentBefore } from "../charging/index.js";
import { chargeAttempts, charges } from "../db/schema/index.js";
import { inBatches } from "./batches.js";

/**
 * Rule: an open attempt is never forgotten. A charge in `processing` whose open attempt (in_flight
 * or unknown, through the partial unique index charge_attempts_one_open_per_charge) was sent longer
 * ago than `stuckAfterMs` belongs to a worker that crashed, or to a job whose BullMQ retries ran out
 * while reconciling. Its job `charge-<id>-<attempt number>` is added again (a failed one replaced),
 * and the charge job reconciles the attempt with CheckStatus before anything else: re-enqueuing
 * never sends a second payment blindly.
 *
 * Age is measured on Postgres's clock (see charging/quiet-period.ts). Rows are locked FOR UPDATE
 * SKIP LOCKED while the jobs are added; paging is by charge id.
 */
export async function dispatchStuckCharges(
  ctx: Pick<EngineContext, "db" | "queues">,
  options: { batchSize: number; stuckAfterMs: number },
): Promise<number> {
  const { batchSize } = options;
  let enqueued = 0;
  await inBatches<string>(batchSize, (after) =>
    ctx.db.transaction(async (tx) => {
      const rows = await tx
        .select({ chargeId: charges.id, attemptNumber: chargeAttempts.attemptNumber })
        .from(chargeAttempts)
        .innerJoin(charges, eq(charges.id, chargeAttempts.chargeId))
        .where(
          and(
            inArray(chargeAttempts.status, ["in_flight", "unknown"]),
            eq(charges.status, "processing"),
            sentBefore(chargeAttempts.createdAt, options.stuckAfterMs),
            after === undefined ? undefined : gt(chargeAttempts.chargeId, after),
          ),
        )
        .orderBy(asc(chargeAttempts.chargeId))
        .limit(batchSize)
        .for("update", { of: charges, skipLocked: true });
      for (const row of rows) {
        if (await ensureChargeJob(ctx.queues, row.chargeId, row.attemptNumber)) enqueued += 1;
      }
      return { rows: rows.length, cursor: rows.at(-1)?.chargeId };
    }),
  );
  return enqueued;
}
