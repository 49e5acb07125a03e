import { and, eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { coupons, events, subscriptionDiscounts, subscriptions } from "../../../src/db/schema/index.js";
import { recordUpcomingNotices } from "../../../src/notices/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { chargeStatuses, createSubscription } from "../charging/fixtures.js";
import { type ApiHarness, createApiHarness } from "./support.js";

/**
 * The preview of the next charge (GET /v1/subscriptions/:id/upcoming) against the charge the tick
 * then creates: the same period, lines, discount, credit and total, to the minor unit. Tax of 15 %
 * is included in prices. Subscriptions start on 2026-01-01 00:00 in Qatar.
 */
const START = "2025-12-31T21:00:00Z";
const MID_JANUARY = "2026-01-16T00:00:00+03:00";
const FEBRUARY = "2026-02-01T00:00:00+03:00";

describe("GET /v1/subscriptions/:id/upcoming", () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await createApiHarness({ start: START, env: { TAX_RATE_PERCENT: "15" } });
    startChargeWorker(api.h.ctx, { concurrency: 4, ratePerSecond: 100 });
  });
  afterAll(() => api?.close());

  const upcoming = (subscriptionId: string) =>
    api.call("GET", `/v1/subscriptions/${subscriptionId}/upcoming`);

  it("previews three seats under a 20 % once coupon and 10.00 of credit, as the tick then charges them", async () => {
    api.h.clock.set(DateTime.fromISO(START));
    const sub = await createSubscription(api.h, {
      kind: "autosave",
      amountMinor: 5_000,
      price: { priceModel: "per_unit" },
      quantity: 3,
    });
    const [coupon] = await api.h.ctx.db
      .insert(coupons)
      .values({ code: "TWENTY", discountType: "percentage", percentOff: 20, duration: "once" })
      .returning();
    await api.h.ctx.db.insert(subscriptionDiscounts).values({
      subscriptionId: sub.subscriptionId,
      couponId: coupon!.id,
      appliedAt: new Date(START),
      actor: "test",
    });
    await api.h.ctx.db
      .update(subscriptions)
      .set({ creditMinor: 1_000 })
      .where(eq(subscriptions.id, sub.subscriptionId));

    const reply = await upcoming(sub.subscriptionId);
    expect(reply.statusCode, reply.body).toBe(200);
    const preview = reply.json();
    // 3 × 50.00 = 150.00; 20 % off = 30.00; 10.00 credit; 110.00 with 15 % tax in it: 110 × 15/115 = 14.35
    expect(preview).toMatchObject({
      quantity: 3,
      period_start: "2025-12-31T21:00:00.000Z",
      period_end: "2026-01-31T21:00:00.000Z",
      lines: [{ kind: "plan", quantity: 3, amount: { amount: "150.00" } }],
      subtotal: { amount_minor: 15_000 },
      discount: { amount_minor: 3_000 },
      coupon_code: "TWENTY",
      credit: { amount_minor: 1_000 },
      total: { amount: "110.00", amount_minor: 11_000, currency: "QAR" },
      tax_included: { amount_minor: 1_435 },
    });
    expect(preview.lines[0].parts).toEqual([
      expect.objectContaining({ quantity: 3, unit_amount: expect.objectContaining({ amount_minor: 5_000 }) }),
    ]);

    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const [january] = await chargeStatuses(api.h, sub.subscriptionId, ["paid"]);
    expect({
      start: january!.periodStart.toISOString(),
      amount: january!.amountMinor,
      discount: january!.discountMinor,
      credit: january!.creditMinor,
      quantity: january!.quantity,
    }).toEqual({
      start: preview.period_start,
      amount: preview.total.amount_minor,
      discount: preview.discount.amount_minor,
      credit: preview.credit.amount_minor,
      quantity: preview.quantity,
    });
  });

  it("previews February on the quantity scheduled for the period's end, without the spent coupon", async () => {
    api.h.clock.set(DateTime.fromISO(START));
    const sub = await createSubscription(api.h, {
      kind: "autosave",
      amountMinor: 5_000,
      price: { priceModel: "per_unit" },
      quantity: 4,
    });
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    await chargeStatuses(api.h, sub.subscriptionId, ["paid"]);
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    const change = await api.call("POST", `/v1/subscriptions/${sub.subscriptionId}/change-plan`, {
      body: { quantity: 2, proration: "at_period_end" },
    });
    expect(change.statusCode, change.body).toBe(200);

    const preview = (await upcoming(sub.subscriptionId)).json();
    expect(preview).toMatchObject({
      quantity: 2,
      period_start: "2026-01-31T21:00:00.000Z",
      total: { amount_minor: 10_000 },
      discount: { amount_minor: 0 },
      coupon_code: null,
    });

    // The renewal notice announces the same amount.
    const noticed = await recordUpcomingNotices(api.h.ctx, {
      now: DateTime.fromISO(MID_JANUARY).plus({ days: 14 }),
      renewalDays: 7,
      trialDays: 3,
      limit: 50,
    });
    expect(noticed.renewalUpcoming).toBeGreaterThanOrEqual(1);
    const [notice] = await api.h.ctx.db
      .select()
      .from(events)
      .where(
        and(eq(events.subscriptionId, sub.subscriptionId), eq(events.type, "subscription.renewal_upcoming")),
      );
    expect((notice!.data as { amount_minor: number }).amount_minor).toBe(preview.total.amount_minor);

    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const [, february] = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);
    expect([february!.periodStart.toISOString(), february!.quantity, february!.amountMinor]).toEqual([
      preview.period_start,
      preview.quantity,
      preview.total.amount_minor,
    ]);
  });

  it("says why a subscription has no upcoming charge, and 404 for none", async () => {
    api.h.clock.set(DateTime.fromISO(START));
    const sub = await createSubscription(api.h, { kind: "autosave" });
    await api.h.ctx.db
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: true })
      .where(eq(subscriptions.id, sub.subscriptionId));
    const ending = await upcoming(sub.subscriptionId);
    expect(ending.statusCode).toBe(409);
    expect(ending.json()).toMatchObject({ code: "no_upcoming_charge" });
    expect(ending.json().detail).toContain("ends at its period's end");

    const missing = await upcoming("00000000-0000-4000-8000-000000000000");
    expect(missing.statusCode).toBe(404);
  });
});
