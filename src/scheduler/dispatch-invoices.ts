import { and, asc, eq, exists, gt, notExists, or } from "drizzle-orm";
import type { EngineContext } from "../app/index.js";
import { charges, invoices } from "../db/schema/index.js";
import { enqueueInvoice, invoiceJobId, QUEUE_NAMES } from "../queue/index.js";
import { inBatches } from "./batches.js";

/**
 * Rule: every charge whose dunning ended (uncollectible) gets its invoice. The charge worker
 * enqueues the invoice job when it makes a charge uncollectible; this finds, from Postgres, those
 * whose job was lost (Redis wiped, enqueue failed after commit, a worker that died mid-call, BullMQ
 * retries that ran out while the gateway was down) and gives them `invoice-<charge id>`:
 * - uncollectible charges without an invoices row;
 * - charges whose invoices row is still `pending` (inserted, then the job was lost): the invoicing
 *   worker continues it, or closes it if the charge is no longer owed.
 * A job of that id still waiting, delayed or active is left alone; a FAILED one (its retries ran
 * out) is replaced, as the charge dispatcher does: the invoice is sent under our charge id as its
 * number, which the gateway refuses twice, so a fresh run can never make a second invoice. Refusals
 * that retrying cannot fix settle the row as failed and complete the job, so they are not re-run.
 *
 * No partial index covers uncollectible charges, so this is a scan bounded by the batch size per
 * transaction. Rows are locked FOR UPDATE SKIP LOCKED; paging is by charge id.
 */
export async function dispatchInvoices(
  ctx: Pick<EngineContext, "db" | "queues">,
  options: { batchSize: number },
): Promise<number> {
  const { batchSize } = options;
  const queue = ctx.queues.queue(QUEUE_NAMES.invoices);
  let enqueued = 0;
  await inBatches<string>(batchSize, (after) =>
    ctx.db.transaction(async (tx) => {
      const invoiceOf = (status?: "pending") =>
        tx
          .select({ id: invoices.id })
          .from(invoices)
          .where(and(eq(invoices.chargeId, charges.id), status ? eq(invoices.status, status) : undefined));
      const rows = await tx
        .select({ id: charges.id })
        .from(charges)
        .where(
          and(
            or(
              and(eq(charges.status, "uncollectible"), notExists(invoiceOf())),
              exists(invoiceOf("pending")),
            ),
            after === undefined ? undefined : gt(charges.id, after),
          ),
        )
        .orderBy(asc(charges.id))
        .limit(batchSize)
        .for("update", { of: charges, skipLocked: true });
      for (const { id } of rows) {
        const jobId = invoiceJobId(id);
        const state = await queue.getJobState(jobId);
        if (state === "failed") await queue.remove(jobId);
        else if (state !== "unknown") continue;
        await enqueueInvoice(ctx.queues, { chargeId: id });
        enqueued += 1;
      }
      return { rows: rows.length, cursor: rows.at(-1)?.id };
    }),
  );
  return enqueued;
}
