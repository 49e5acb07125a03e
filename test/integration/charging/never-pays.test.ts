import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { invoices } from "../../../src/db/schema/index.js";
import { startInvoiceWorker } from "../../../src/invoicing/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { CARDS, createSubscription, eventually, onlyCharge, subscriptionRow } from "./fixtures.js";

interface LedgerInvoice {
  number: string;
  amount: string;
  currency: string;
  status: string;
  client: { email: string } | null;
}

/**
 * The whole way from a card that never pays to the gateway invoice, with the charge and invoice
 * workers running as they do in production: five declines, the subscription unpaid, and one
 * v1 invoice in the simulator's ledger numbered with our charge id.
 */
describe("a card that never pays", () => {
  let h: EngineHarness;
  const start = DateTime.fromISO("2026-03-10T08:00:00Z", { zone: "utc" });

  beforeAll(async () => {
    h = await createEngineHarness({ start: start.toISO()! });
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
    startInvoiceWorker(h.ctx);
  });
  afterAll(() => h?.close());

  it("ends in an invoice at the gateway and an unpaid subscription", async () => {
    const sub = await createSubscription(h, { card: CARDS.alwaysDeclined });
    await runBillingTick(h.ctx);
    await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: 1 });
    for (const [days, attempts] of [
      [1, 2],
      [3, 3],
      [5, 4],
    ] as const) {
      h.clock.set(start.plus({ days }));
      await runBillingTick(h.ctx);
      await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: attempts });
    }
    h.clock.set(start.plus({ days: 7 }));
    await runBillingTick(h.ctx);
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "uncollectible", attemptCount: 5 });
    expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("unpaid");

    const [row] = await eventually(async () => {
      const rows = await h.ctx.db.select().from(invoices).where(eq(invoices.chargeId, charge.id));
      expect(rows.map((r) => r.status)).toEqual(["created"]);
      return rows;
    });
    const ledger = await h.simAdmin<{ invoices: LedgerInvoice[] }>("GET", "/_sim/ledger");
    const atGateway = ledger.invoices.filter((invoice) => invoice.number === charge.id);
    expect(atGateway).toHaveLength(1);
    expect(atGateway[0]).toMatchObject({ amount: "100.00", currency: "QAR", status: "sent" });
    expect(row).toMatchObject({ number: charge.id });
    expect(row?.link).toMatch(/^https?:\/\//);

    // Later ticks neither invoice it again nor charge the card.
    h.clock.advance("P1M");
    expect(await runBillingTick(h.ctx)).toMatchObject({ chargesCreated: 0, invoicesEnqueued: 0 });
    const again = await h.simAdmin<{ invoices: LedgerInvoice[] }>("GET", "/_sim/ledger");
    expect(again.invoices.filter((invoice) => invoice.number === charge.id)).toHaveLength(1);
  });
});
