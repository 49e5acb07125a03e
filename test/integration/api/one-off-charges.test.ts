import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { printDocument } from "../../../src/customer-documents/index.js";
import { addons, chargeLines, subscriptionAddons } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { chargeStatuses, collections, createSubscription } from "../charging/fixtures.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/**
 * One-off charges and add-ons on the period charge, end to end through the simulator: a set-up fee
 * collected now, an overage and an add-on billed as lines of February's charge (stored with it, and
 * shown by the preview before), cancel rules, and the refusals. Subscriptions start on 2026-01-01
 * 00:00 in Qatar.
 */
const START = "2025-12-31T21:00:00Z";
const MID_JANUARY = "2026-01-16T00:00:00+03:00";
const FEBRUARY = "2026-02-01T00:00:00+03:00";

describe("one-off charges and add-ons", () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await createApiHarness({ start: START });
    startChargeWorker(api.h.ctx, { concurrency: 4, ratePerSecond: 100 });
  });
  afterAll(() => api?.close());

  const oneOff = (subscriptionId: string, body: Record<string, unknown>) =>
    api.call("POST", `/v1/subscriptions/${subscriptionId}/one-off-charges`, { body });

  async function paidJanuary(kind: "autosave" | "recurring" = "autosave") {
    api.h.clock.set(DateTime.fromISO(START));
    const sub = await createSubscription(api.h, { kind, amountMinor: 10_000 });
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    await chargeStatuses(api.h, sub.subscriptionId, ["paid"]);
    return sub;
  }

  it("collects a set-up fee now as a charge of its own", async () => {
    const sub = await paidJanuary();
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    const reply = await oneOff(sub.subscriptionId, {
      description: "Set-up",
      amount: "150.00",
      collect: "now",
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json()).toMatchObject({ status: "billed", amount: { amount_minor: 15_000 } });
    const rows = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);
    expect(rows.map((row) => [row.kind, row.amountMinor])).toEqual([
      ["period", 10_000],
      ["one_off", 15_000],
    ]);
    expect(rows[1]!.id).toBe(reply.json().charge_id);
    expect((await collections(api.h, sub.cardToken)).map((payment) => payment.amount)).toEqual([
      "100.00",
      "150.00",
    ]);
  });

  it("bills an overage and an add-on as lines of February's charge, as the preview showed", async () => {
    const sub = await paidJanuary();
    const [addon] = await api.h.ctx.db
      .insert(addons)
      .values({
        code: `extra-${Date.now()}`,
        name: "Extra storage",
        amountMinor: 1_000,
        currency: "QAR",
        priceModel: "per_unit",
      })
      .returning();
    await api.h.ctx.db.insert(subscriptionAddons).values({
      subscriptionId: sub.subscriptionId,
      addonId: addon!.id,
      quantity: 2,
      addedAt: new Date(MID_JANUARY),
      actor: "test",
    });
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    const overage = await oneOff(sub.subscriptionId, {
      description: "API overage",
      amount: "20.00",
      quantity: 3,
      collect: "next_bill",
    });
    expect(overage.statusCode, overage.body).toBe(201);
    expect(overage.json()).toMatchObject({
      status: "waiting",
      charge_id: null,
      amount: { amount_minor: 6_000 },
    });

    const preview = (await api.call("GET", `/v1/subscriptions/${sub.subscriptionId}/upcoming`)).json();
    expect(
      preview.lines.map((line: { kind: string; amount: { amount_minor: number } }) => [
        line.kind,
        line.amount.amount_minor,
      ]),
    ).toEqual([
      ["plan", 10_000],
      ["addon", 2_000],
      ["one_off", 6_000],
    ]);
    expect(preview.total.amount_minor).toBe(18_000);

    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const [, february] = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);
    expect(february!.amountMinor).toBe(preview.total.amount_minor);
    const stored = await api.h.ctx.db
      .select()
      .from(chargeLines)
      .where(eq(chargeLines.chargeId, february!.id))
      .orderBy(chargeLines.position);
    expect(stored.map((line) => [line.kind, line.description, line.quantity, line.amountMinor])).toEqual([
      ["plan", "Monthly", 1, 10_000],
      ["addon", "Extra storage", 2, 2_000],
      ["one_off", "API overage", 3, 6_000],
    ]);
    const receipt = await api.call("GET", `/v1/charges/${february!.id}/receipt`);
    expect(receipt.statusCode, receipt.body).toBe(200);
    const printed = await printDocument(api.h.ctx, "receipt", receipt.json().id, "html", "en");
    expect(String(printed?.body)).toContain("Extra storage × 2");
    expect(String(printed?.body)).toContain("API overage × 3");
    const listed = (await api.call("GET", `/v1/subscriptions/${sub.subscriptionId}/one-off-charges`)).json();
    expect(listed.data).toEqual([expect.objectContaining({ status: "billed", charge_id: february!.id })]);
    // Billed once: March takes the add-on again, not the overage.
    const march = (await api.call("GET", `/v1/subscriptions/${sub.subscriptionId}/upcoming`)).json();
    expect(march.total.amount_minor).toBe(12_000);
  });

  it("cancels a waiting one-off, and refuses to cancel it twice or one already billed", async () => {
    const sub = await paidJanuary();
    const waiting = (
      await oneOff(sub.subscriptionId, { description: "Training", amount: "50.00", collect: "next_bill" })
    ).json();
    const cancel = (id: string) =>
      api.call("POST", `/v1/subscriptions/${sub.subscriptionId}/one-off-charges/${id}/cancel`);
    const first = await cancel(waiting.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().status).toBe("canceled");
    expect((await cancel(waiting.id)).json().code).toBe("one_off_not_waiting");

    const now = (
      await oneOff(sub.subscriptionId, { description: "Set-up", amount: "10.00", collect: "now" })
    ).json();
    const billed = await cancel(now.id);
    expect(billed.statusCode).toBe(409);
    expect(billed.json().detail).toContain("refund that charge instead");
    const preview = (await api.call("GET", `/v1/subscriptions/${sub.subscriptionId}/upcoming`)).json();
    expect(preview.total.amount_minor).toBe(10_000);
  });

  it("refuses a recurring card token, an amount finer than the currency, and an unknown field", async () => {
    const recurring = await paidJanuary("recurring");
    const fixed = await oneOff(recurring.subscriptionId, {
      description: "Set-up",
      amount: "10.00",
      collect: "now",
    });
    expect(fixed.statusCode).toBe(422);
    expect(fixed.json().code).toBe("card_amount_fixed");

    const sub = await paidJanuary();
    const fine = await oneOff(sub.subscriptionId, {
      description: "Set-up",
      amount: "10.005",
      collect: "now",
    });
    expect(fine.statusCode).toBe(400);
    expect(fine.json().errors).toEqual([expect.objectContaining({ field: "amount" })]);
    const unknown = await oneOff(sub.subscriptionId, { description: "x", amount: "1.00", collect: "later" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain("collect");
  });
});
