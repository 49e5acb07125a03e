import { and, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { charges, events, invoices, plans, subscriptions } from "../../../src/db/schema/index.js";
import { GatewayUnavailableError } from "../../../src/gateway/index.js";
import { createInvoiceForCharge, startInvoiceWorker } from "../../../src/invoicing/index.js";
import { enqueueInvoice, invoiceJobId } from "../../../src/queue/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { jobRun } from "../app/jobs.js";
import { seedCharge, seedSubscription } from "../app/seed.js";

interface LedgerInvoice {
  id: number;
  number: string;
  amount: string;
  currency: string;
  status: string;
  type: string;
  link: string;
  client: { name: string; email: string; phone: string } | null;
  items: { product_id: number | null; description: string; qty: string; amount: string }[];
  setting: { discount: string; discount_type: string };
}

const ANCHOR = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });

let h: EngineHarness;
let worker: ReturnType<typeof startInvoiceWorker>;

async function ledgerInvoices(): Promise<LedgerInvoice[]> {
  return (await h.simAdmin<{ invoices: LedgerInvoice[] }>("GET", "/_sim/ledger")).invoices;
}

async function invoiceRow(chargeId: string) {
  const [row] = await h.ctx.db.select().from(invoices).where(eq(invoices.chargeId, chargeId));
  return row;
}

async function invoiceEvents(chargeId: string) {
  return h.ctx.db
    .select()
    .from(events)
    .where(and(eq(events.chargeId, chargeId), eq(events.type, "invoice.created")));
}

/** Enqueues the invoice job of a charge and waits for the worker to finish it. */
async function runInvoiceJob(chargeId: string) {
  const run = jobRun(worker, invoiceJobId(chargeId));
  await enqueueInvoice(h.ctx.queues, { chargeId });
  return run;
}

async function uncollectibleCharge(options: { productId?: string | null } = {}) {
  const seeded = await seedSubscription(h, { anchor: ANCHOR, status: "unpaid", ...options });
  const charge = await seedCharge(h, seeded.subscription.id, ANCHOR.plus({ months: 1 }));
  return { ...seeded, charge };
}

beforeAll(async () => {
  h = await createEngineHarness({ start: "2026-02-22T10:00:00Z" });
  worker = startInvoiceWorker(h.ctx);
});
afterAll(() => h?.close());
beforeEach(async () => {
  await h.simAdmin("DELETE", "/_sim/faults");
});

describe("an uncollectible charge gets one gateway invoice", () => {
  it("creates a detailed invoice numbered with our charge id, for the charge's amount and the customer", async () => {
    const { charge, customer } = await uncollectibleCharge();

    const { result, failures } = await runInvoiceJob(charge.id);

    expect(failures).toEqual([]);
    expect(result).toMatchObject({ kind: "created", number: charge.id, alreadyCreated: false });
    const sent = (await ledgerInvoices()).filter((invoice) => invoice.number === charge.id);
    expect(sent).toHaveLength(1);
    const [invoice] = sent;
    expect(invoice).toMatchObject({
      amount: "100.00",
      currency: "QAR",
      status: "sent",
      type: "detailed",
      client: { name: "Amal Al-Thani", email: customer.email, phone: "+97455555555" },
    });
    expect(invoice!.items).toEqual([
      expect.objectContaining({
        product_id: null,
        description: "Gold monthly, 2026-02-15 – 2026-03-15",
        qty: "1",
        amount: "100.00",
      }),
    ]);
    const row = await invoiceRow(charge.id);
    expect(row).toMatchObject({
      status: "created",
      gatewayInvoiceId: invoice!.id,
      number: charge.id,
      link: invoice!.link,
      amountMinor: 10_000,
      currency: "QAR",
      attempts: 1,
      lastError: null,
    });
    expect(row!.createdAtGateway?.toISOString()).toBe("2026-02-22T10:00:00.000Z");
    const recorded = await invoiceEvents(charge.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.data).toMatchObject({
      gateway_invoice_id: invoice!.id,
      link: invoice!.link,
      confirmed: true,
    });
  });

  it("running the job again sends nothing: still one invoice in the ledger", async () => {
    const { charge } = await uncollectibleCharge();
    await runInvoiceJob(charge.id);

    const second = await runInvoiceJob(charge.id);

    expect(second.result).toMatchObject({ kind: "created", alreadyCreated: true });
    expect((await ledgerInvoices()).filter((invoice) => invoice.number === charge.id)).toHaveLength(1);
    expect(await invoiceEvents(charge.id)).toHaveLength(1);
    expect((await invoiceRow(charge.id))!.attempts).toBe(1);
  });

  it("puts the plan's gateway product on the item", async () => {
    const { product } = await h.simAdmin<{ product: { id: number } }>("POST", "/_sim/products", {
      name: "Gold membership",
      sku: `gold-${Date.now()}`,
      price: "100.00",
    });
    const { charge } = await uncollectibleCharge({ productId: String(product.id) });

    await runInvoiceJob(charge.id);

    const invoice = (await ledgerInvoices()).find((entry) => entry.number === charge.id);
    expect(invoice!.items[0]!.product_id).toBe(product.id);
  });

  it("names the plan the charge billed, not the one the subscription moved to since", async () => {
    const { charge, subscription } = await uncollectibleCharge();
    const [silver] = await h.ctx.db
      .insert(plans)
      .values({
        name: "Silver monthly",
        amountMinor: 5_000,
        currency: "QAR",
        intervalUnit: "month",
        intervalCount: 1,
      })
      .returning();
    await h.ctx.db
      .update(subscriptions)
      .set({ planId: silver!.id })
      .where(eq(subscriptions.id, subscription.id));

    await runInvoiceJob(charge.id);

    const invoice = (await ledgerInvoices()).find((entry) => entry.number === charge.id);
    expect(invoice!.items[0]!.description).toBe("Gold monthly, 2026-02-15 – 2026-03-15");
  });
});

describe("gateway failures", () => {
  it("a transport failure throws with the attempt recorded, and the job's retry creates the invoice", async () => {
    const { charge } = await uncollectibleCharge();
    await h.simAdmin("POST", "/_sim/faults", { operation: "invoices", kind: "error5xx", times: 1 });

    const { result, failures } = await runInvoiceJob(charge.id);

    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(GatewayUnavailableError);
    expect(result).toMatchObject({ kind: "created", alreadyCreated: false });
    expect(await invoiceRow(charge.id)).toMatchObject({ status: "created", attempts: 2, lastError: null });
    expect((await ledgerInvoices()).filter((invoice) => invoice.number === charge.id)).toHaveLength(1);
  });

  it("records attempts and last_error on the pending row while the gateway is unreachable", async () => {
    const { charge } = await uncollectibleCharge();
    await h.simAdmin("POST", "/_sim/faults", { operation: "invoices", kind: "error5xx", times: 2 });

    await expect(createInvoiceForCharge(h.ctx, charge.id)).rejects.toBeInstanceOf(GatewayUnavailableError);
    await expect(createInvoiceForCharge(h.ctx, charge.id)).rejects.toBeInstanceOf(GatewayUnavailableError);

    const row = await invoiceRow(charge.id);
    expect(row).toMatchObject({ status: "pending", attempts: 2, gatewayInvoiceId: null });
    expect(row!.lastError).toMatch(/503|Service Unavailable/);
    expect(await createInvoiceForCharge(h.ctx, charge.id)).toMatchObject({ kind: "created" });
  });

  it("a lost reply then 'number already exists' is settled as created-unconfirmed, never a second invoice", async () => {
    const { charge } = await uncollectibleCharge();
    await h.simAdmin("POST", "/_sim/faults", { operation: "invoices", kind: "apply_then_drop", times: 1 });

    const { result, failures } = await runInvoiceJob(charge.id);

    expect(failures).toHaveLength(1);
    expect(result).toMatchObject({ kind: "unconfirmed", number: charge.id });
    expect((await ledgerInvoices()).filter((invoice) => invoice.number === charge.id)).toHaveLength(1);
    const row = await invoiceRow(charge.id);
    expect(row).toMatchObject({ status: "failed", attempts: 2, gatewayInvoiceId: null, link: null });
    expect(row!.lastError).toMatch(/already holds invoice number .* look it up/);
    const recorded = await invoiceEvents(charge.id);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.data).toMatchObject({
      number: charge.id,
      gateway_invoice_id: null,
      confirmed: false,
    });

    expect(await createInvoiceForCharge(h.ctx, charge.id)).toMatchObject({ kind: "failed" });
    expect((await ledgerInvoices()).filter((invoice) => invoice.number === charge.id)).toHaveLength(1);
  });

  it("a refusal is final: the row fails with the gateway's reason and the job completes", async () => {
    const { charge } = await uncollectibleCharge({ productId: "999999" });

    const { result, failures } = await runInvoiceJob(charge.id);

    expect(failures).toEqual([]);
    expect(result).toMatchObject({ kind: "failed" });
    const row = await invoiceRow(charge.id);
    expect(row).toMatchObject({ status: "failed", attempts: 1 });
    expect(row!.lastError).toMatch(/product_id/);
    expect((await ledgerInvoices()).some((invoice) => invoice.number === charge.id)).toBe(false);
  });
});

describe("charges that are not owed", () => {
  it("a paid charge is not invoiced and gets no row", async () => {
    const seeded = await seedSubscription(h, { anchor: ANCHOR });
    const charge = await seedCharge(h, seeded.subscription.id, ANCHOR, "paid");

    expect(await createInvoiceForCharge(h.ctx, charge.id)).toMatchObject({ kind: "skipped" });
    expect(await invoiceRow(charge.id)).toBeUndefined();
  });
});

describe("a discounted charge's invoice", () => {
  async function discounted(values: {
    amountMinor: number;
    discountMinor: number;
    discountPercent: number | null;
    creditMinor: number;
  }) {
    const { charge } = await uncollectibleCharge();
    await h.ctx.db.update(charges).set(values).where(eq(charges.id, charge.id));
    await runInvoiceJob(charge.id);
    return (await ledgerInvoices()).find((invoice) => invoice.number === charge.id)!;
  }

  it.each([
    // 15% of 100.00: the gateway takes round_half_up(15.00) itself, so the total is the charge
    [
      "a percentage coupon is sent as the percentage",
      { amountMinor: 8_500, discountMinor: 1_500, discountPercent: 15, creditMinor: 0 },
      "15",
      "percentage",
      "85.00",
    ],
    [
      "a fixed coupon as its amount",
      { amountMinor: 7_500, discountMinor: 2_500, discountPercent: null, creditMinor: 0 },
      "25.00",
      "fixed",
      "75.00",
    ],
    // credit is money off too; with a percentage beside it, the exact sum is sent as fixed
    [
      "a percentage with credit as the exact fixed sum",
      { amountMinor: 5_500, discountMinor: 1_500, discountPercent: 15, creditMinor: 3_000 },
      "45.00",
      "fixed",
      "55.00",
    ],
  ] as const)("%s", async (_name, values, discount, type, total) => {
    const invoice = await discounted(values);
    expect(invoice.items[0]!.amount).toBe("100.00");
    expect(invoice.setting).toMatchObject({ discount, discount_type: type });
    expect(invoice.amount).toBe(total);
  });
});
