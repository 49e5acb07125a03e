import type { PendingQuery, Row } from "postgres";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import { enqueueInvoice, invoiceJobId, makeWayForJob, QUEUE_NAMES } from "../queue/index.js";
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
 * Both are read through partial indexes (charges_uncollectible_idx, invoices_pending_idx), so the
 * scan costs what dunning has left uninvoiced, not the number of charges. Rows are locked FOR UPDATE
 * SKIP LOCKED; paging is by charge id.
 */
export async function dispatchInvoices(
  ctx: Pick<EngineContext, "db" | "queues">,
  options: { batchSize: number },
): Promise<number> {
  const { batchSize } = options;
  const queue = ctx.queues.queue(QUEUE_NAMES.invoices);
  let enqueued = 0;
  await inBatches<string>(batchSize, (after) =>
    ctx.db.$client.begin(async (tx) => {
      const rows = await tx<{ id: string }[]>`
        select c.id ${owingInvoices(tx)}
          and c.id > ${after ?? "00000000-0000-0000-0000-000000000000"}::uuid
        order by c.id
        limit ${batchSize}
        for update of c skip locked`;
      for (const { id } of rows) {
        if (!(await makeWayForJob(queue, invoiceJobId(id)))) continue;
        await enqueueInvoice(ctx.queues, { chargeId: id });
        enqueued += 1;
      }
      return { rows: rows.length, cursor: rows.at(-1)?.id };
    }),
  );
  return enqueued;
}

/** Charges owing their invoice, as dispatchInvoices selects them; work-probe.ts asks it too. */
export function owingInvoices(sql: SqlRunner): PendingQuery<Row[]> {
  return sql`
    from charges c
    where c.id in (
        select u.id from charges u
        where u.status = 'uncollectible'
          and not exists (select 1 from invoices i where i.charge_id = u.id)
        union
        select i.charge_id from invoices i where i.status = 'pending')`;
}
