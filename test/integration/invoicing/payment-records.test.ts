import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runTick } from "../../../src/app/index.js";
import { createGatewayLimiter, processChargeBatch } from "../../../src/charging/index.js";
import { charges, events, gatewayPaymentRecords } from "../../../src/db/schema/index.js";
import { sendPaymentRecords } from "../../../src/invoicing/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { type CardSubscription, chargesOf, createSubscription } from "../charging/fixtures.js";

/**
 * GATEWAY_RECORD_PAID_INVOICES: every paid charge also becomes a paid v1 invoice in the merchant's
 * gateway account, numbered with our receipt and carrying the payment's transaction, sent from the
 * tick against the simulator over HTTP; a failure is retried with backoff and never touches the charge.
 */

interface LedgerInvoice {
  id: number;
  number: string;
  amount: string;
  currency: string;
  status: string;
  type: string;
  client: { email: string } | null;
  items: { description: string; qty: string; amount: string }[];
  payments: { transaction_id: string; amount: string; payment_type: string; status: string }[];
}

async function ledgerInvoices(h: EngineHarness): Promise<LedgerInvoice[]> {
  return (await h.simAdmin<{ invoices: LedgerInvoice[] }>("GET", "/_sim/ledger?only=invoices")).invoices;
}

async function recordOf(h: EngineHarness, chargeId: string) {
  const [row] = await h.ctx.db
    .select()
    .from(gatewayPaymentRecords)
    .where(eq(gatewayPaymentRecords.chargeId, chargeId));
  return row;
}

async function chargeRow(h: EngineHarness, chargeId: string) {
  const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, chargeId));
  return row!;
}

/** A subscription whose first charge the gateway has just paid; returns the paid charge. */
async function paidCharge(h: EngineHarness): Promise<{ sub: CardSubscription; chargeId: string }> {
  const sub = await createSubscription(h);
  await runBillingTick(h.ctx, { batchSize: 50 });
  await h.ctx.queues.obliterate();
  const [charge] = await chargesOf(h, sub.subscriptionId);
  const limiter = createGatewayLimiter({ maxInFlight: 4, ratePerSecond: 1000 });
  const outcome = await processChargeBatch(h.ctx, [charge!.id], { limiter, flushMs: 5 });
  expect(outcome.failures.size).toBe(0);
  expect((await chargeRow(h, charge!.id)).status).toBe("paid");
  return { sub, chargeId: charge!.id };
}

describe("with GATEWAY_RECORD_PAID_INVOICES=true", () => {
  let h: EngineHarness;

  beforeAll(async () => {
    h = await createEngineHarness({ env: { GATEWAY_RECORD_PAID_INVOICES: "true" } });
  }, 60_000);
  afterAll(() => h?.close());
  afterEach(async () => {
    await h.simAdmin("DELETE", "/_sim/faults");
  });

  it("records a paid charge from the tick as a paid invoice with its payment's transaction", async () => {
    const { sub, chargeId } = await paidCharge(h);
    expect(await recordOf(h, chargeId)).toMatchObject({ status: "pending", attempts: 0 });

    await runTick(h.ctx);

    const charge = await chargeRow(h, chargeId);
    const sent = (await ledgerInvoices(h)).filter((invoice) => invoice.number === "RCT-000001");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      amount: "100.00",
      currency: "QAR",
      status: "paid",
      type: "detailed",
      client: { email: sub.email },
      items: [expect.objectContaining({ qty: "1", amount: "100.00" })],
      payments: [
        expect.objectContaining({
          transaction_id: charge.paidTransactionId,
          amount: "100.00",
          payment_type: "Credit",
          status: "Paid",
        }),
      ],
    });
    expect(await recordOf(h, chargeId)).toMatchObject({
      status: "created",
      gatewayInvoiceId: sent[0]!.id,
      attempts: 1,
      nextAttemptAt: null,
      lastError: null,
    });
    const [recorded] = await h.ctx.db.select().from(events).where(eq(events.type, "charge.payment_recorded"));
    expect(recorded).toMatchObject({
      chargeId,
      data: { gateway_invoice_id: sent[0]!.id, number: "RCT-000001" },
    });

    await runTick(h.ctx);
    expect((await ledgerInvoices(h)).filter((invoice) => invoice.number === "RCT-000001")).toHaveLength(1);
  });

  it("retries after a gateway error with backoff, leaving the charge paid", async () => {
    const { chargeId } = await paidCharge(h);
    await h.simAdmin("POST", "/_sim/faults", { operation: "invoices", kind: "error5xx", times: 1 });

    expect(await sendPaymentRecords(h.ctx, { limit: 10 })).toEqual({ created: 0, retrying: 1, failed: 0 });

    const failed = await recordOf(h, chargeId);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, gatewayInvoiceId: null });
    expect(failed!.lastError).toMatch(/503|unavailable/i);
    expect(failed!.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(h.clock.now().toMillis());
    expect(failed!.nextAttemptAt!.getTime()).toBeLessThanOrEqual(
      h.clock.now().plus({ minutes: 5 }).toMillis(),
    );
    const charge = await chargeRow(h, chargeId);
    expect(charge).toMatchObject({ status: "paid" });

    h.clock.advance({ minutes: 5 });
    expect(await sendPaymentRecords(h.ctx, { limit: 10 })).toEqual({ created: 1, retrying: 0, failed: 0 });
    expect(await recordOf(h, chargeId)).toMatchObject({ status: "created", attempts: 2, lastError: null });
    expect(await chargeRow(h, chargeId)).toEqual(charge);
  });

  it("hands the rest of the batch back unsent once the gateway is unreachable", async () => {
    const first = await paidCharge(h);
    const second = await paidCharge(h);
    await h.simAdmin("POST", "/_sim/faults", { operation: "invoices", kind: "error5xx" });

    expect(await sendPaymentRecords(h.ctx, { limit: 10 })).toEqual({ created: 0, retrying: 1, failed: 0 });

    const rows = [await recordOf(h, first.chargeId), await recordOf(h, second.chargeId)];
    expect(rows.map((row) => row!.status)).toEqual(["pending", "pending"]);
    expect(rows.map((row) => row!.attempts).sort()).toEqual([0, 1]);
    const unsent = rows.find((row) => row!.attempts === 0)!;
    expect(unsent.nextAttemptAt!.getTime()).toBe(h.clock.now().toMillis());

    await h.simAdmin("DELETE", "/_sim/faults");
    h.clock.advance({ minutes: 5 });
    expect(await sendPaymentRecords(h.ctx, { limit: 10 })).toEqual({ created: 2, retrying: 0, failed: 0 });
  });

  it("fails the record, not the charge, when the gateway already holds its number", async () => {
    const { chargeId } = await paidCharge(h);
    // An earlier attempt whose reply was lost: the gateway holds RCT-000005 already.
    await h.ctx.gateway.v1.createInvoice({
      description: "lost reply",
      amount: { minor: 10_000, currency: "QAR" },
      number: "RCT-000005",
    });

    expect(await sendPaymentRecords(h.ctx, { limit: 10 })).toEqual({ created: 0, retrying: 0, failed: 1 });

    const row = await recordOf(h, chargeId);
    expect(row).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null });
    expect(row!.lastError).toContain("already holds invoice number RCT-000005");
    expect((await chargeRow(h, chargeId)).status).toBe("paid");
  });
});

describe("with GATEWAY_RECORD_PAID_INVOICES unset", () => {
  let h: EngineHarness;

  beforeAll(async () => {
    h = await createEngineHarness();
  }, 60_000);
  afterAll(() => h?.close());

  it("writes no record and sends nothing", async () => {
    const { chargeId } = await paidCharge(h);
    expect(await recordOf(h, chargeId)).toBeUndefined();
    await runTick(h.ctx);
    expect(await ledgerInvoices(h)).toEqual([]);
  });
});
