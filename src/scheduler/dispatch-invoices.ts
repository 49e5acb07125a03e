import { and, asc, eq, gt, notExists } from "drizzle-orm";
import type { EngineContext } from "../app/index.js";
import { charges, invoices } from "../db/schema/index.js";
import { enqueueInvoice, invoiceJobId, isJobPresent, QUEUE_NAMES } from "../queue/index.js";
import { inBatches } from "./batches.js";

/**
 * Rule: every charge whose dunning ended (uncollectible) gets its invoice. The charge worker
 * enqueues the invoice job when it makes a charge uncollectible; this finds, from Postgres, those
 * whose job was lost (Redis wiped, enqueue failed after commit): uncollectible charges without an
 * invoices row get `invoice-<charge id>` unless it exists. Creating the invoice is the invoicing
 * worker's (the invoices row is unique per charge).
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
      const rows = await tx
        .select({ id: charges.id })
        .from(charges)
        .where(
          and(
            eq(charges.status, "uncollectible"),
            notExists(tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.chargeId, charges.id))),
            after === undefined ? undefined : gt(charges.id, after),
          ),
        )
        .orderBy(asc(charges.id))
        .limit(batchSize)
        .for("update", { skipLocked: true });
      for (const { id } of rows) {
        if (await isJobPresent(queue, invoiceJobId(id))) continue;
        await enqueueInvoice(ctx.queues, { chargeId: id });
        enqueued += 1;
      }
      return { rows: rows.length, cursor: rows.at(-1)?.id };
    }),
  );
  return enqueued;
}
