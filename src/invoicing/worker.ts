import { UnrecoverableError } from "bullmq";
import type { EngineContext } from "../context/index.js";
import { refreshClock } from "../context/index.js";
import type { BillingWorker, WorkerSettings } from "../queue/index.js";
import { InvoiceChargeNotFoundError } from "./charge-facts.js";
import { createInvoiceForCharge } from "./create-invoice.js";

/**
 * The invoices queue's worker: one job per charge (job id invoice-<chargeId>), each a call to
 * createInvoiceForCharge after the shared clock is refreshed. A thrown error (gateway unreachable)
 * makes BullMQ retry with backoff; a charge that does not exist cannot be fixed by retrying.
 */
export function startInvoiceWorker(
  ctx: EngineContext,
  settings: WorkerSettings = { concurrency: 4 },
): BillingWorker {
  return ctx.queues.worker(
    "invoices",
    async ({ chargeId }) => {
      await refreshClock(ctx.clock);
      try {
        return await createInvoiceForCharge(ctx, chargeId);
      } catch (error) {
        if (error instanceof InvoiceChargeNotFoundError) throw new UnrecoverableError(error.message);
        throw error;
      }
    },
    settings,
  );
}
