import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayLimiter, processChargeBatch } from "../../../src/charging/index.js";
import {
  creditNotes,
  customerMessages,
  customers,
  merchantSettings,
  receipts,
} from "../../../src/db/schema/index.js";
import { recordEvent } from "../../../src/events/index.js";
import { refundCharge } from "../../../src/refunds/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { type CardSubscription, chargesOf, createSubscription } from "../charging/fixtures.js";

/**
 * What the customer gets is written with the event that causes it: a gap-free receipt number per
 * payment, a credit note per refund the gateway accepted, and one message per event and customer,
 * except for kinds the customer or the merchant turned off.
 */
describe("the customer outbox", () => {
  let h: EngineHarness;
  const subs: CardSubscription[] = [];
  const chargeIds: string[] = [];

  beforeAll(async () => {
    h = await createEngineHarness();
    for (let i = 0; i < 24; i += 1) subs.push(await createSubscription(h));
    await h.ctx.db.update(customers).set({ language: "ar" }).where(eq(customers.id, subs[0]!.customerId));
    await h.ctx.db
      .update(customers)
      .set({ messageOptOuts: ["receipt"] })
      .where(eq(customers.id, subs[1]!.customerId));
    await runBillingTick(h.ctx, { batchSize: 50 });
    await h.ctx.queues.obliterate();
    for (const sub of subs) chargeIds.push((await chargesOf(h, sub.subscriptionId))[0]!.id);
    // Three batches paid at once, as three workers would: their receipts take numbers concurrently.
    const limiter = createGatewayLimiter({ maxInFlight: 8, ratePerSecond: 1000 });
    const batches = [chargeIds.slice(0, 8), chargeIds.slice(8, 16), chargeIds.slice(16)];
    const outcomes = await Promise.all(
      batches.map((ids) => processChargeBatch(h.ctx, ids, { limiter, flushMs: 5 })),
    );
    for (const outcome of outcomes) expect(outcome.failures.size).toBe(0);
  }, 120_000);
  afterAll(() => h?.close());

  it("numbers one receipt per payment, consecutive from 1 under concurrent payers", async () => {
    const rows = await h.ctx.db.select().from(receipts).orderBy(asc(receipts.number));
    expect(rows.map((r) => r.number)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.chargeId))).toEqual(new Set(chargeIds));
    expect(rows.every((r) => r.amountMinor === 10_000 && r.currency === "QAR" && r.taxRateBp === 0)).toBe(
      true,
    );
  });

  it("writes one receipt message per payment in the customer's language, none for an opt-out", async () => {
    const messages = await h.ctx.db
      .select()
      .from(customerMessages)
      .where(eq(customerMessages.kind, "receipt"));
    expect(messages).toHaveLength(23);
    expect(messages.some((m) => m.customerId === subs[1]!.customerId)).toBe(false);
    const arabic = messages.find((m) => m.customerId === subs[0]!.customerId);
    expect(arabic).toMatchObject({ language: "ar", status: "pending", toAddress: subs[0]!.email });
    expect(messages.every((m) => m.nextAttemptAt !== null && m.chargeId !== null)).toBe(true);
  });

  it("gives a rolled-back payment's number back", async () => {
    const [charge] = await chargesOf(h, subs[2]!.subscriptionId);
    await expect(
      h.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`delete from customer_messages where charge_id = ${charge!.id}`);
        await tx.execute(sql`delete from receipts where charge_id = ${charge!.id}`);
        await recordEvent(tx, {
          type: "charge.succeeded",
          actor: "test",
          occurredAt: h.clock.now(),
          subscriptionId: subs[2]!.subscriptionId,
          chargeId: charge!.id,
        });
        const [issued] = await tx.select().from(receipts).where(eq(receipts.chargeId, charge!.id));
        expect(issued?.number).toBe(25);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const [series] = await h.ctx.db.execute<{ last_number: string }>(
      sql`select last_number from document_series where series = 'receipt'`,
    );
    expect(Number(series?.last_number)).toBe(24);
  });

  it("issues a credit note and a refund message when a refund goes through", async () => {
    const refund = await refundCharge(h.ctx, { chargeId: chargeIds[3]!, actor: "test" });
    expect(["completed", "under_processing"]).toContain(refund.status);
    const notes = await h.ctx.db.select().from(creditNotes);
    expect(notes).toEqual([
      expect.objectContaining({
        number: 1,
        refundId: refund.id,
        chargeId: chargeIds[3],
        amountMinor: 10_000,
      }),
    ]);
    const told = await h.ctx.db
      .select()
      .from(customerMessages)
      .where(eq(customerMessages.kind, "refund_issued"));
    expect(told.map((m) => m.customerId)).toEqual([subs[3]!.customerId]);
  });

  it("writes no messages of a kind the merchant turned off, but still numbers the receipt", async () => {
    await h.ctx.db.update(merchantSettings).set({ messagesDisabled: ["refund_issued"] });
    const refund = await refundCharge(h.ctx, { chargeId: chargeIds[4]!, actor: "test" });
    expect(refund.status).not.toBe("failed");
    const notes = await h.ctx.db.select().from(creditNotes).orderBy(asc(creditNotes.number));
    expect(notes.map((n) => n.number)).toEqual([1, 2]);
    const told = await h.ctx.db
      .select()
      .from(customerMessages)
      .where(eq(customerMessages.kind, "refund_issued"));
    expect(told).toHaveLength(1);
  });
});
