import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { coupons, paymentMethods, subscriptionDiscounts } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  chargeStatuses,
  collections,
  createSubscription,
  eventTypesOf,
  subscriptionRow,
} from "./fixtures.js";

/**
 * Coupons on the billing path: the scheduler prices each period from the live discount, counts the
 * periods it discounted, ends a once/repeating coupon after its last one, and records a period that
 * costs nothing as paid without calling the gateway. Monthly periods from 2026-01-01 in Qatar.
 */
const START = DateTime.fromISO("2025-12-31T21:00:00Z");

describe("discounted periods", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness({ start: START.toISO()! });
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
  });
  afterEach(() => h?.close());

  async function redeem(subscriptionId: string, values: Partial<typeof coupons.$inferInsert>) {
    const [coupon] = await h.ctx.db
      .insert(coupons)
      .values({ code: `C${Date.now()}`, discountType: "percentage", duration: "forever", ...values })
      .returning();
    const [discount] = await h.ctx.db
      .insert(subscriptionDiscounts)
      .values({ subscriptionId, couponId: coupon!.id, appliedAt: START.toJSDate(), actor: "test" })
      .returning();
    return { coupon: coupon!, discount: discount! };
  }

  /** Bills month by month, each paid before the clock moves on, so the gateway sees them in order. */
  async function billMonths(subscriptionId: string, months: number) {
    for (let month = 0; month < months; month += 1) {
      h.clock.set(START.plus({ months: month }));
      await runBillingTick(h.ctx, { batchSize: 20 });
      await chargeStatuses(h, subscriptionId, Array<string>(month + 1).fill("paid"));
    }
  }

  it("takes 15% off two periods of a repeating coupon, then charges the full price", async () => {
    const sub = await createSubscription(h, { kind: "autosave", amountMinor: 9_999 });
    const { discount } = await redeem(sub.subscriptionId, {
      percentOff: 15,
      duration: "repeating",
      durationPeriods: 2,
    });

    await billMonths(sub.subscriptionId, 3);
    const rows = await chargeStatuses(h, sub.subscriptionId, ["paid", "paid", "paid"]);
    // 9999 × 15% = 1499.85 → 1500 off, half up
    expect(rows.map((row) => [row.amountMinor, row.discountMinor, row.discountPercent])).toEqual([
      [8_499, 1_500, 15],
      [8_499, 1_500, 15],
      [9_999, 0, null],
    ]);
    expect((await collections(h, sub.cardToken)).map((p) => p.amount)).toEqual(["84.99", "84.99", "99.99"]);
    const [ended] = await h.ctx.db
      .select()
      .from(subscriptionDiscounts)
      .where(eq(subscriptionDiscounts.id, discount.id));
    expect(ended).toMatchObject({ periodsApplied: 2 });
    expect(ended!.endedAt?.toISOString()).toBe("2026-01-31T21:00:00.000Z");
  });

  it("records a period a fixed coupon covers as paid without the gateway, once", async () => {
    const sub = await createSubscription(h, { kind: "autosave", amountMinor: 10_000 });
    await redeem(sub.subscriptionId, {
      discountType: "fixed",
      amountOffMinor: 15_000,
      currency: "QAR",
      duration: "once",
    });

    await billMonths(sub.subscriptionId, 2);
    const rows = await chargeStatuses(h, sub.subscriptionId, ["paid", "paid"]);
    expect(rows[0]).toMatchObject({
      amountMinor: 0,
      discountMinor: 10_000,
      attemptCount: 0,
      paidTransactionId: null,
    });
    expect(rows[1]).toMatchObject({ amountMinor: 10_000, discountMinor: 0 });
    // Only the second period reached the gateway.
    expect((await collections(h, sub.cardToken)).map((p) => p.amount)).toEqual(["100.00"]);
    expect(await eventTypesOf(h, sub.subscriptionId)).toContain("charge.succeeded");
  });

  it("activates a trial whose first period costs nothing", async () => {
    const sub = await createSubscription(h, { kind: "autosave", amountMinor: 10_000, trialDays: 7 });
    await redeem(sub.subscriptionId, {
      discountType: "fixed",
      amountOffMinor: 10_000,
      currency: "QAR",
      duration: "once",
    });

    h.clock.set(sub.anchor);
    await runBillingTick(h.ctx, { batchSize: 20 });
    await chargeStatuses(h, sub.subscriptionId, ["paid"]);
    expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("active");
    expect(await eventTypesOf(h, sub.subscriptionId)).toContain("subscription.activated");
  });

  it("never calls the gateway for a recurring card whose charge differs from its enrolled amount", async () => {
    // The services refuse a coupon on a recurring card; this one is written past them, as a bad
    // import or a hand edit would, to show the charge path does not take the wrong amount.
    const sub = await createSubscription(h, { kind: "recurring", amountMinor: 10_000 });
    await redeem(sub.subscriptionId, { percentOff: 20 });

    h.clock.set(START);
    await runBillingTick(h.ctx, { batchSize: 20 });
    const [charge] = await chargeStatuses(h, sub.subscriptionId, ["uncollectible"]);
    expect(charge).toMatchObject({ amountMinor: 8_000, attemptCount: 0 });
    expect(await collections(h, sub.cardToken)).toEqual([]);
    const [card] = await h.ctx.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, sub.paymentMethodId));
    expect(card!.unusableReason).toContain(
      "recurring card token for 10000 minor units cannot pay a charge of 8000",
    );
  });
});
