import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { EngineContext } from "../app/index.js";
import { ensureChargeJob, resumableOnNewCard } from "../charging/index.js";
import { charges, paymentMethods, subscriptions } from "../db/schema/index.js";
import { inBatches } from "./batches.js";

/**
 * Rule: a debt is collected again as soon as the customer saves a new card. Charges that are
 * retrying or uncollectible, of a past_due or unpaid subscription whose current card works and has
 * not been tried on them yet (charging/resumable.ts: what the enrollment service announces as
 * `payment_method.replaced` with resume_collection), get a job `charge-<id>-<attempt_count + 1>`;
 * the charge job sees the same condition and collects at once. Found from rows, not from the event,
 * so a crash between the two cannot lose it.
 *
 * No partial index covers uncollectible charges, so this is a scan bounded by the batch size per
 * transaction. Rows are locked FOR UPDATE SKIP LOCKED; paging is by charge id.
 */
export async function dispatchResumedCharges(
  ctx: Pick<EngineContext, "db" | "queues">,
  options: { now: DateTime; batchSize: number },
): Promise<number> {
  const { now, batchSize } = options;
  let enqueued = 0;
  await inBatches<string>(batchSize, (after) =>
    ctx.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: charges.id, attemptCount: charges.attemptCount })
        .from(charges)
        .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
        .innerJoin(paymentMethods, eq(paymentMethods.id, subscriptions.paymentMethodId))
        .where(
          and(
            inArray(charges.status, ["retrying", "uncollectible"]),
            isNull(paymentMethods.deactivatedAt),
            isNull(paymentMethods.unusableAt),
            gt(paymentMethods.expiresAt, now.toJSDate()),
            resumableOnNewCard,
            after === undefined ? undefined : gt(charges.id, after),
          ),
        )
        .orderBy(asc(charges.id))
        .limit(batchSize)
        .for("update", { of: charges, skipLocked: true });
      for (const row of rows) {
        if (await ensureChargeJob(ctx.queues, row.id, row.attemptCount + 1)) enqueued += 1;
      }
      return { rows: rows.length, cursor: rows.at(-1)?.id };
    }),
  );
  return enqueued;
}
