import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { customers, enrollments, plans, subscriptions } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";
import {
  type CardSubscription,
  chargeStatuses,
  collections,
  createSubscription,
  type SubscriptionOptions,
  subscriptionRow,
} from "../charging/fixtures.js";

/**
 * Seats end to end: a period is charged at the plan's price model and the subscription's quantity
 * (through GetnewPayment at the simulator), and a change of quantity mid-period prorates as a plan
 * change does. Subscriptions start on 2026-01-01 00:00 in Qatar.
 */
const START = "2025-12-31T21:00:00Z";
const MID_JANUARY = "2026-01-16T00:00:00+03:00";
const FEBRUARY = "2026-02-01T00:00:00+03:00";

const PER_SEAT: SubscriptionOptions["price"] = { priceModel: "per_unit" };
// 1-5 at 10.00, 6-10 at 8.00, 11 and up at 5.00 (graduated).
const TIERS = [
  { up_to: 5, unit_amount_minor: 1_000, flat_amount_minor: 0 },
  { up_to: 10, unit_amount_minor: 800, flat_amount_minor: 0 },
  { up_to: null, unit_amount_minor: 500, flat_amount_minor: 0 },
];

describe("seats", () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await createApiHarness({ start: START });
    startChargeWorker(api.h.ctx, { concurrency: 4, ratePerSecond: 100 });
  });
  afterAll(() => api?.close());

  /** A subscription on an autosave card whose January is billed and paid. */
  async function paid(options: SubscriptionOptions) {
    api.h.clock.set(DateTime.fromISO(START));
    const sub = await createSubscription(api.h, { kind: "autosave", ...options });
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    await chargeStatuses(api.h, sub.subscriptionId, ["paid"]);
    return sub;
  }

  const changePlan = (sub: CardSubscription, body: Record<string, unknown>) =>
    api.call("POST", `/v1/subscriptions/${sub.subscriptionId}/change-plan`, { body });

  it("charges three seats, then prorates two more from mid-January and bills February at five", async () => {
    const sub = await paid({ amountMinor: 5_000, price: PER_SEAT, quantity: 3 });
    const [january] = await chargeStatuses(api.h, sub.subscriptionId, ["paid"]);
    expect(january).toMatchObject({ amountMinor: 15_000, quantity: 3 });

    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    const reply = await changePlan(sub, { quantity: 5, proration: "immediate_prorate" });
    expect(reply.statusCode, reply.body).toBe(200);
    // 16 of 31 days unused: credit 15000 × 16/31 = 7741.9 → 7742; debit 25000 × 16/31 = 12903.2 → 12903
    expect(reply.json().plan_change).toMatchObject({
      from_plan_id: sub.planId,
      to_plan_id: sub.planId,
      from_quantity: 3,
      to_quantity: 5,
      credit: { amount_minor: 7_742 },
      debit: { amount_minor: 12_903 },
      charge_amount: { amount: "51.61", amount_minor: 5_161 },
    });
    expect(reply.json().subscription.quantity).toBe(5);
    // Collected before February is billed, so the gateway sees them in that order.
    await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);

    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const rows = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid", "paid"]);
    expect(rows.map((row) => [row.kind, row.quantity, row.amountMinor])).toEqual([
      ["period", 3, 15_000],
      ["plan_change", 5, 5_161],
      ["period", 5, 25_000],
    ]);
    const taken = await collections(api.h, sub.cardToken);
    expect(taken.map((payment) => payment.amount)).toEqual(["150.00", "51.61", "250.00"]);
  });

  it("schedules fewer seats for the period's end: nothing now, February at two", async () => {
    const sub = await paid({ amountMinor: 5_000, price: PER_SEAT, quantity: 5 });
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    const reply = await changePlan(sub, { quantity: 2, proration: "at_period_end" });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().subscription).toMatchObject({
      quantity: 5,
      scheduled_plan_change: { to_plan_id: sub.planId, to_quantity: 2 },
    });

    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const rows = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);
    expect(rows.map((row) => [row.quantity, row.amountMinor])).toEqual([
      [5, 25_000],
      [2, 10_000],
    ]);
    expect((await subscriptionRow(api.h, sub.subscriptionId)).quantity).toBe(2);
  });

  it("prices twelve seats on graduated tiers: 5 × 10.00 + 5 × 8.00 + 2 × 5.00", async () => {
    const sub = await paid({
      amountMinor: 10_000,
      price: { priceModel: "tiered", tiers: TIERS },
      quantity: 12,
    });
    const [january] = await chargeStatuses(api.h, sub.subscriptionId, ["paid"]);
    expect(january).toMatchObject({ amountMinor: 10_000, quantity: 12 });
    const taken = await collections(api.h, sub.cardToken);
    expect(taken.map((payment) => payment.amount)).toEqual(["100.00"]);
  });

  it("refuses a change of the same plan and quantity, and more seats on a recurring card", async () => {
    const sub = await paid({ amountMinor: 5_000, price: PER_SEAT, quantity: 2 });
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    const same = await changePlan(sub, { quantity: 2 });
    expect(same.statusCode).toBe(422);
    expect(same.json().code).toBe("same_plan");
    const neither = await changePlan(sub, {});
    expect(neither.statusCode).toBe(400);
    expect(neither.body).toContain("give plan_id, quantity or both");

    const recurring = await paid({ kind: "recurring", amountMinor: 5_000, price: PER_SEAT, quantity: 1 });
    const refused = await changePlan(recurring, { quantity: 2, proration: "immediate_prorate" });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe("card_amount_fixed");
  });

  it("subscribes with a quantity through the API; the checkout asks one period at that quantity", async () => {
    const [plan] = await api.h.ctx.db
      .insert(plans)
      .values({
        name: "Seats",
        amountMinor: 2_500,
        currency: "QAR",
        intervalUnit: "month",
        intervalCount: 1,
        billingMode: "autosave",
        priceModel: "per_unit",
      })
      .returning();
    const [customer] = await api.h.ctx.db
      .insert(customers)
      .values({ email: "seats@example.com" })
      .returning();
    const reply = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customer!.id, plan_id: plan!.id, quantity: 4 },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().quantity).toBe(4);
    const [enrollment] = await api.h.ctx.db
      .select()
      .from(enrollments)
      .where(eq(enrollments.subscriptionId, reply.json().id));
    expect(enrollment!.amountMinor).toBe(10_000);
    const [row] = await api.h.ctx.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, reply.json().id));
    expect(row!.quantity).toBe(4);

    const tooMany = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customer!.id, plan_id: plan!.id, quantity: 0, allow_duplicate: true },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.body).toContain("quantity must be at least 1");
  });
});
