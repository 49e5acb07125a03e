import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import {
  coupons,
  events,
  plans,
  subscriptionDiscounts,
  subscriptions,
  webhookDeliveries,
} from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";
import {
  type CardSubscription,
  chargeStatuses,
  chargesOf,
  collections,
  createSubscription,
  subscriptionRow,
} from "../charging/fixtures.js";

/**
 * Plan changes end to end: the API, the proration charge collected through GetnewPayment at the
 * simulator, credit carried onto the next period, re-anchoring, and changes scheduled for the
 * period's end carried out by the billing tick. Subscriptions start on 2026-01-01 00:00 in Qatar.
 */
const START = "2025-12-31T21:00:00Z";
const MID_JANUARY = "2026-01-16T00:00:00+03:00";
const FEBRUARY = "2026-02-01T00:00:00+03:00";

describe("plan changes", () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await createApiHarness({ start: START });
    startChargeWorker(api.h.ctx, { concurrency: 4, ratePerSecond: 100 });
  });
  afterAll(() => api?.close());

  async function plan(amountMinor: number, unit: "month" | "year" = "month", currency = "QAR") {
    const [row] = await api.h.ctx.db
      .insert(plans)
      .values({
        name: `${unit} ${amountMinor}`,
        amountMinor,
        currency,
        intervalUnit: unit,
        intervalCount: 1,
        billingMode: "autosave",
      })
      .returning();
    return row!.id;
  }

  /** A subscription on an autosave card whose first period (January) is billed and paid. */
  async function paidSubscription(amountMinor: number, kind: "autosave" | "recurring" = "autosave") {
    api.h.clock.set(DateTime.fromISO(START));
    const sub = await createSubscription(api.h, { kind, amountMinor });
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    await chargeStatuses(api.h, sub.subscriptionId, ["paid"]);
    return sub;
  }

  const changePlan = (sub: CardSubscription, body: Record<string, unknown>) =>
    api.call("POST", `/v1/subscriptions/${sub.subscriptionId}/change-plan`, { body });

  it("upgrades mid-period: the difference is collected at once, and February is billed at the new price", async () => {
    const sub = await paidSubscription(10_000);
    const gold = await plan(20_000);
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));

    const reply = await changePlan(sub, { plan_id: gold, proration: "immediate_prorate" });
    expect(reply.statusCode, reply.body).toBe(200);
    const { plan_change: change, subscription } = reply.json();
    // 16 of 31 days unused: credit 10000 × 16/31 = 5161.29 → 51.61; debit 20000 × 16/31 → 103.23
    expect(change).toMatchObject({
      status: "applied",
      credit: { amount: "51.61", amount_minor: 5_161 },
      debit: { amount: "103.23", amount_minor: 10_323 },
      charge_amount: { amount: "51.62", amount_minor: 5_162 },
      credit_balance: { amount_minor: 0 },
    });
    expect(subscription.plan_id).toBe(gold);

    const [january, difference] = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);
    expect(difference).toMatchObject({ kind: "plan_change", amountMinor: 5_162, planChangeId: change.id });
    expect(january!.kind).toBe("period");
    const paid = await collections(api.h, sub.cardToken);
    expect(paid.map((payment) => payment.amount)).toEqual(["100.00", "51.62"]);

    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const rows = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid", "paid"]);
    expect(rows.find((row) => row.kind === "period" && row.amountMinor === 20_000)).toBeDefined();

    const types = (
      await api.h.ctx.db.select().from(events).where(eq(events.subscriptionId, sub.subscriptionId))
    ).map((e) => e.type);
    expect(types).toContain("subscription.plan_changed");
    const hooks = await api.h.ctx.db.select().from(webhookDeliveries);
    // No endpoint is registered, so nothing is delivered; the event is still in the log with its data.
    expect(hooks).toEqual([]);
  });

  it("prorates at what the period cost: both sides under its percentage coupon, nothing credited once refunded", async () => {
    api.h.clock.set(DateTime.fromISO(START));
    const discounted = await createSubscription(api.h, { kind: "autosave", amountMinor: 10_000 });
    const [coupon] = await api.h.ctx.db
      .insert(coupons)
      .values({ code: "HALF", discountType: "percentage", percentOff: 50, duration: "forever" })
      .returning();
    await api.h.ctx.db.insert(subscriptionDiscounts).values({
      subscriptionId: discounted.subscriptionId,
      couponId: coupon!.id,
      appliedAt: new Date(START),
      actor: "test",
    });
    const refunded = await createSubscription(api.h, { kind: "autosave", amountMinor: 10_000 });
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    await chargeStatuses(api.h, discounted.subscriptionId, ["paid"]);
    const [january] = await chargeStatuses(api.h, refunded.subscriptionId, ["paid"]);
    const refund = await api.call("POST", `/v1/charges/${january!.id}/refund`, { body: {} });
    expect(refund.statusCode, refund.body).toBe(200);
    const gold = await plan(20_000);
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));

    // January cost 50.00: 16/31 of it is 25.81 of credit; Gold under the same 50% costs 100.00 a
    // month, 16/31 of it 51.61.
    const half = await changePlan(discounted, { plan_id: gold });
    expect(half.json().plan_change).toMatchObject({
      credit: { amount_minor: 2_581 },
      debit: { amount_minor: 5_161 },
      charge_amount: { amount_minor: 2_580 },
    });
    // January's payment was given back: no time was paid for, so nothing is credited.
    const none = await changePlan(refunded, { plan_id: gold });
    expect(none.json().plan_change).toMatchObject({
      credit: { amount_minor: 0 },
      charge_amount: { amount_minor: 10_323 },
    });
  });

  it("downgrades mid-period: the difference becomes credit that the next period uses", async () => {
    const sub = await paidSubscription(20_000);
    const basic = await plan(10_000);
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));

    const reply = await changePlan(sub, { plan_id: basic });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().plan_change).toMatchObject({
      proration: "immediate_prorate",
      charge_id: null,
      credit_balance: { amount: "51.62", amount_minor: 5_162 },
    });
    expect((await subscriptionRow(api.h, sub.subscriptionId)).creditMinor).toBe(5_162);

    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const [, february] = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);
    expect(february).toMatchObject({ amountMinor: 10_000 - 5_162, creditMinor: 5_162, discountMinor: 0 });
    expect((await subscriptionRow(api.h, sub.subscriptionId)).creditMinor).toBe(0);
    expect((await collections(api.h, sub.cardToken)).map((p) => p.amount)).toEqual(["200.00", "48.38"]);
  });

  it("re-anchors on a new interval: the year starts now, charged less the unused month", async () => {
    const sub = await paidSubscription(10_000);
    const yearly = await plan(100_000, "year");
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));

    const reply = await changePlan(sub, { plan_id: yearly });
    expect(reply.statusCode, reply.body).toBe(200);
    const { plan_change: change, subscription } = reply.json();
    expect(change).toMatchObject({ debit: { amount_minor: 100_000 }, credit: { amount_minor: 5_161 } });
    expect(change.charge_amount.amount_minor).toBe(94_839);
    expect(subscription.current_period_start).toBe("2026-01-15T21:00:00.000Z");
    expect(subscription.next_billing_at).toBe("2027-01-15T21:00:00.000Z");
    await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);

    // February 1 is no boundary any more: nothing is billed until the year ends.
    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    expect(await runBillingTick(api.h.ctx, { batchSize: 50 })).toMatchObject({ chargesCreated: 0 });
  });

  it("schedules a change for the period's end; the tick carries it out and bills the new plan", async () => {
    const sub = await paidSubscription(10_000);
    const gold = await plan(20_000);
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));

    const reply = await changePlan(sub, { plan_id: gold, proration: "at_period_end" });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().plan_change).toMatchObject({
      status: "scheduled",
      effective_at: "2026-01-31T21:00:00.000Z",
      charge_id: null,
    });
    expect(reply.json().subscription.plan_id).toBe(sub.planId);
    expect(reply.json().subscription.scheduled_plan_change).toEqual({
      id: reply.json().plan_change.id,
      to_plan_id: gold,
      to_quantity: 1,
      effective_at: "2026-01-31T21:00:00.000Z",
    });

    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const [, february] = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);
    expect(february!.amountMinor).toBe(20_000);
    expect((await subscriptionRow(api.h, sub.subscriptionId)).planId).toBe(gold);
    const shown = await api.call("GET", `/v1/subscriptions/${sub.subscriptionId}`);
    expect(shown.json()).toMatchObject({ plan_id: gold, scheduled_plan_change: null });
  });

  it("keeps a scheduled change through a pause, and carries it out at the next boundary after the resume", async () => {
    const sub = await paidSubscription(10_000);
    const gold = await plan(20_000);
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    await changePlan(sub, { plan_id: gold, proration: "at_period_end" });
    expect(
      (await api.call("POST", `/v1/subscriptions/${sub.subscriptionId}/pause`, { body: {} })).statusCode,
    ).toBe(200);

    // Paused over the boundary: nothing is billed and the change waits.
    api.h.clock.set(DateTime.fromISO("2026-02-10T00:00:00+03:00"));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    expect((await subscriptionRow(api.h, sub.subscriptionId)).planId).toBe(sub.planId);
    // Resumed mid-period: billing restarts at the next boundary, and so does the new plan.
    const resumed = await api.call("POST", `/v1/subscriptions/${sub.subscriptionId}/resume`, { body: {} });
    expect(resumed.json()).toMatchObject({ status: "active", next_billing_at: "2026-02-28T21:00:00.000Z" });
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    expect((await subscriptionRow(api.h, sub.subscriptionId)).planId).toBe(sub.planId);

    api.h.clock.set(DateTime.fromISO("2026-03-01T00:00:00+03:00"));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const [, march] = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);
    expect(march).toMatchObject({ amountMinor: 20_000, periodStart: new Date("2026-02-28T21:00:00.000Z") });
    expect((await subscriptionRow(api.h, sub.subscriptionId)).planId).toBe(gold);
  });

  it("takes back a scheduled change", async () => {
    const sub = await paidSubscription(10_000);
    const gold = await plan(20_000);
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    await changePlan(sub, { plan_id: gold, proration: "at_period_end" });

    const canceled = await api.call("POST", `/v1/subscriptions/${sub.subscriptionId}/change-plan/cancel`, {
      body: {},
    });
    expect(canceled.statusCode, canceled.body).toBe(200);
    const again = await api.call("POST", `/v1/subscriptions/${sub.subscriptionId}/change-plan/cancel`, {
      body: {},
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("no_scheduled_change");

    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const [, february] = await chargeStatuses(api.h, sub.subscriptionId, ["paid", "paid"]);
    expect(february!.amountMinor).toBe(10_000);
  });

  it("pays a period covered by credit without calling the gateway", async () => {
    const sub = await paidSubscription(20_000);
    const cheap = await plan(1_000);
    // On the first day nearly all of January is unused: 200.00 of credit against a 10.00 plan.
    api.h.clock.set(DateTime.fromISO("2026-01-01T00:00:00+03:00"));
    const reply = await changePlan(sub, { plan_id: cheap });
    expect(reply.json().plan_change.credit_balance.amount_minor).toBe(20_000 - 1_000);

    api.h.clock.set(DateTime.fromISO(FEBRUARY));
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    const [, february] = await chargesOf(api.h, sub.subscriptionId);
    expect(february).toMatchObject({
      status: "paid",
      amountMinor: 0,
      creditMinor: 1_000,
      attemptCount: 0,
      paidTransactionId: null,
    });
    expect((await collections(api.h, sub.cardToken)).map((p) => p.amount)).toEqual(["200.00"]);
    expect((await subscriptionRow(api.h, sub.subscriptionId)).creditMinor).toBe(18_000);
  });

  it("refuses what cannot be changed, naming why, and writes nothing", async () => {
    const sub = await paidSubscription(10_000);
    const kwd = await plan(10_000, "month", "KWD");
    const gold = await plan(20_000);
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));

    const currency = await changePlan(sub, { plan_id: kwd });
    expect(currency.statusCode).toBe(422);
    expect(currency.json()).toMatchObject({ code: "currency_mismatch", errors: [{ field: "plan_id" }] });
    const same = await changePlan(sub, { plan_id: sub.planId });
    expect(same.json().code).toBe("same_plan");
    const badBehaviour = await changePlan(sub, { plan_id: gold, proration: "sometimes" });
    expect(badBehaviour.statusCode).toBe(400);
    expect(badBehaviour.body).toContain("proration");

    await api.h.ctx.db
      .update(subscriptions)
      .set({ status: "past_due" })
      .where(eq(subscriptions.id, sub.subscriptionId));
    const pastDue = await changePlan(sub, { plan_id: gold });
    expect(pastDue.statusCode).toBe(409);
    expect(pastDue.json().code).toBe("subscription_past_due");

    const recurring = await paidSubscription(10_000, "recurring");
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    const fixed = await changePlan(recurring, { plan_id: gold });
    expect(fixed.statusCode).toBe(422);
    expect(fixed.json().code).toBe("card_amount_fixed");
    expect((await subscriptionRow(api.h, recurring.subscriptionId)).planId).toBe(recurring.planId);
  });

  it("refuses to prorate while the period's charge is still being collected", async () => {
    api.h.clock.set(DateTime.fromISO(START));
    const sub = await createSubscription(api.h, { kind: "autosave", amountMinor: 10_000 });
    const gold = await plan(20_000);
    // Billed but not collected: the charge is scheduled (no worker has taken it yet, or it is retrying).
    await api.h.ctx.db
      .update(subscriptions)
      .set({
        currentPeriodStart: new Date("2025-12-31T21:00:00Z"),
        currentPeriodEnd: new Date("2026-01-31T21:00:00Z"),
        nextBillingAt: new Date("2026-01-31T21:00:00Z"),
      })
      .where(eq(subscriptions.id, sub.subscriptionId));
    await api.h.ctx.db.execute(
      `insert into charges (subscription_id, plan_id, period_start, period_end, amount_minor, currency, status, next_attempt_at)
       values ('${sub.subscriptionId}', (select plan_id from subscriptions where id = '${sub.subscriptionId}'), '2025-12-31T21:00:00Z', '2026-01-31T21:00:00Z', 10000, 'QAR', 'retrying', '2026-02-10T00:00:00Z')`,
    );
    api.h.clock.set(DateTime.fromISO(MID_JANUARY));
    const refused = await changePlan(sub, { plan_id: gold, proration: "immediate_prorate" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "period_not_settled", charge_status: "retrying" });
    const scheduled = await changePlan(sub, { plan_id: gold, proration: "at_period_end" });
    expect(scheduled.statusCode).toBe(200);
  });
});
