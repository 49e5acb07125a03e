import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { invoices } from "../../../src/db/schema/index.js";
import { GatewayUnavailableError } from "../../../src/gateway/index.js";
import { createInvoiceForCharge, startInvoiceWorker } from "../../../src/invoicing/index.js";
import { enqueueInvoice, invoiceJobId, QUEUE_NAMES } from "../../../src/queue/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { jobRun } from "../app/jobs.js";
import { seedCharge, seedSubscription } from "../app/seed.js";

/**
 * An invoices row is inserted `pending` before the gateway is called. If its job is then lost (Redis
 * wiped, a worker that died with it, or BullMQ retries that ran out while the gateway was down),
 * Postgres still says the invoice is owed: the tick must find the pending row again.
 */
const ANCHOR = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });

let h: EngineHarness;

async function invoiceRow(chargeId: string) {
  const [row] = await h.ctx.db.select().from(invoices).where(eq(invoices.chargeId, chargeId));
  return row;
}

async function ledgerNumbers(): Promise<string[]> {
  const ledger = await h.simAdmin<{ invoices: { number: string }[] }>("GET", "/_sim/ledger");
  return ledger.invoices.map((invoice) => invoice.number);
}

/** An uncollectible charge whose invoice row is left pending by a transport failure, with no job. */
async function pendingInvoice() {
  const seeded = await seedSubscription(h, { anchor: ANCHOR, status: "unpaid" });
  const charge = await seedCharge(h, seeded.subscription.id, ANCHOR.plus({ months: 1 }));
  await h.simAdmin("POST", "/_sim/faults", { operation: "invoices", kind: "error5xx", times: 1 });
  await expect(createInvoiceForCharge(h.ctx, charge.id)).rejects.toBeInstanceOf(GatewayUnavailableError);
  expect(await invoiceRow(charge.id)).toMatchObject({ status: "pending", attempts: 1 });
  return charge;
}

beforeAll(async () => {
  h = await createEngineHarness({ start: "2026-02-22T10:00:00Z" });
});
afterAll(() => h?.close());
beforeEach(async () => {
  await h.simAdmin("DELETE", "/_sim/faults");
});

describe("a pending invoice whose job was lost", () => {
  it("is enqueued again by the tick and created once", async () => {
    const charge = await pendingInvoice();
    const worker = startInvoiceWorker(h.ctx);
    try {
      const run = jobRun(worker, invoiceJobId(charge.id));
      const tick = await runBillingTick(h.ctx, { batchSize: 10 });
      expect(tick.invoicesEnqueued).toBe(1);
      expect((await run).result).toMatchObject({ kind: "created" });
    } finally {
      await worker.close();
    }
    expect(await invoiceRow(charge.id)).toMatchObject({ status: "created", attempts: 2 });
    expect((await ledgerNumbers()).filter((n) => n === charge.id)).toHaveLength(1);
  });

  it("replaces a job whose retries ran out while the gateway was down", async () => {
    const charge = await pendingInvoice();
    // The job ran out of BullMQ retries: it stays in the failed set, its id taken for a week.
    const queue = h.ctx.queues.queue(QUEUE_NAMES.invoices);
    await enqueueInvoice(h.ctx.queues, { chargeId: charge.id });
    await failJob(charge.id);
    expect(await queue.getJobState(invoiceJobId(charge.id))).toBe("failed");

    const worker = startInvoiceWorker(h.ctx);
    try {
      const run = jobRun(worker, invoiceJobId(charge.id));
      expect((await runBillingTick(h.ctx, { batchSize: 10 })).invoicesEnqueued).toBe(1);
      expect((await run).result).toMatchObject({ kind: "created" });
    } finally {
      await worker.close();
    }
    expect(await invoiceRow(charge.id)).toMatchObject({ status: "created" });
    expect((await ledgerNumbers()).filter((n) => n === charge.id)).toHaveLength(1);
  });
});

/** Moves the waiting invoice job of a charge to failed, as BullMQ does when its last try throws. */
async function failJob(chargeId: string) {
  const worker = startInvoiceWorker(h.ctx, { concurrency: 1 });
  await h.simAdmin("POST", "/_sim/faults", { operation: "invoices", kind: "error5xx", times: 100 });
  try {
    await expect(jobRun(worker, invoiceJobId(chargeId))).rejects.toBeInstanceOf(Error);
  } finally {
    await worker.close();
    await h.simAdmin("DELETE", "/_sim/faults");
  }
}
