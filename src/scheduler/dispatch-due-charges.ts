import { and, asc, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { EngineContext } from "../app/index.js";
import { ensureChargeJob } from "../charging/index.js";
import { charges } from "../db/schema/index.js";
import { inBatches } from "./batches.js";

/**
 * Rule: Postgres holds the schedule, Redis only the hints. Every charge waiting for an attempt
 * (scheduled or retrying) whose next_attempt_at has come, found through the partial index
 * charges_due_idx, gets a job `charge-<id>-<attempt_count + 1>` unless one exists. Retries are due
 * times in this table, not long BullMQ delays, so a Redis wipe, a restart or a jump of the
 * controllable clock all end the same way: the next tick finds the due charges and enqueues them.
 * Enqueuing twice is harmless (the job id is derived from the charge and its attempt number).
 *
 * Rows are locked FOR UPDATE SKIP LOCKED while their jobs are added, so concurrent ticks split the
 * due rows; paging is by (next_attempt_at, id), as the rows stay due until a worker claims them.
 */
type Cursor = { readonly at: string; readonly id: string };

export async function dispatchDueCharges(
  ctx: Pick<EngineContext, "db" | "queues">,
  options: { now: DateTime; batchSize: number },
): Promise<number> {
  const { now, batchSize } = options;
  let enqueued = 0;
  await inBatches<Cursor>(batchSize, (after) =>
    ctx.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: charges.id, attemptCount: charges.attemptCount, nextAttemptAt: charges.nextAttemptAt })
        .from(charges)
        .where(
          and(
            inArray(charges.status, ["scheduled", "retrying"]),
            isNotNull(charges.nextAttemptAt),
            lte(charges.nextAttemptAt, now.toJSDate()),
            after === undefined
              ? undefined
              : sql`(${charges.nextAttemptAt}, ${charges.id}) > (${after.at}::timestamptz, ${after.id}::uuid)`,
          ),
        )
        .orderBy(asc(charges.nextAttemptAt), asc(charges.id))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      for (const row of rows) {
        if (await ensureChargeJob(ctx.queues, row.id, row.attemptCount + 1)) enqueued += 1;
      }
      const last = rows.at(-1);
      return {
        rows: rows.length,
        cursor: last?.nextAttemptAt ? { at: last.nextAttemptAt.toISOString(), id: last.id } : undefined,
      };
    }),
  );
  return enqueued;
}
