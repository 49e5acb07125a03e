import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { subscriptions } from "../../../src/db/schema/index.js";
import { toDecimalString } from "../../../src/money/index.js";
import { billUsage } from "../../../src/scheduler/bill-usage.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import {
  insertUsageCharges,
  lockDuePeriods,
  scanWindow,
  usagePlans,
} from "../../../src/usage-billing/index.js";
import { countingStatements } from "../../support/counted.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";
import {
  type CardSubscription,
  collections,
  createSubscription,
  eventually,
  replaceCard,
} from "../charging/fixtures.js";
import { chargesOfKind, put, sendUsage, statusesOfKind } from "./support.js";

/**
 * Ticks that run at once never charge a period's usage twice: they split the subscriptions (FOR
 * UPDATE SKIP LOCKED), and the unique usage index turns away a second charge for a period whatever
 * the locks did. Six autosave subscriptions from 2026-01-01 (UTC), api_calls at 0.10 a call.
 */
const START = "2026-01-01T00:00:00Z";
const GRACE_ENDS = "2026-02-02T00:00:00Z";

let api: ApiHarness;
const subs: CardSubscription[] = [];

beforeAll(async () => {
  api = await createApiHarness({ start: START });
  startChargeWorker(api.h.ctx, { concurrency: 4, ratePerSecond: 100 });
  const meter = await api.call("POST", "/v1/meters", {
    body: { code: "api_calls", name: "API calls", aggregation: "sum" },
  });
  expect(meter.statusCode).toBe(201);
});
afterAll(() => api?.close());

describe("usage billed by ticks running at once", () => {
  it("prices nothing and costs one query while no plan prices usage", async () => {
    const { ctx, count } = countingStatements(api.h);
    expect(await billUsage(ctx, { now: api.h.clock.now(), batchSize: 10 })).toEqual({
      chargesCreated: 0,
      chargesDispatched: 0,
      skippedRecurring: 0,
    });
    expect(count.statements).toBe(1);
  });

  it("charges each subscription's January usage once when two ticks run together", async () => {
    for (let i = 0; i < 6; i += 1) {
      const sub = await createSubscription(api.h, { kind: "autosave", amountMinor: 5_000, timezone: "UTC" });
      const priced = await put(api, `/v1/plans/${sub.planId}/usage-prices/api_calls`, { amount: "0.10" });
      expect(priced.statusCode, priced.body).toBe(201);
      subs.push(sub);
    }
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    api.h.clock.set(DateTime.fromISO("2026-01-20T00:00:00Z"));
    for (const [i, sub] of subs.entries()) {
      await statusesOfKind(api, sub.subscriptionId, "period", ["paid"]);
      const quantities = [10 * (i + 1), 7];
      expect(
        await sendUsage(
          api,
          quantities.map((quantity, n) => ({
            id: `c-${n}`,
            subscription_id: sub.subscriptionId,
            meter: "api_calls",
            quantity,
            timestamp: `2026-01-${10 + n}T12:00:00Z`,
          })),
        ),
      ).toEqual(["accepted", "accepted"]);
    }

    api.h.clock.set(DateTime.fromISO(GRACE_ENDS));
    // Small batches, so the two ticks interleave their transactions.
    await Promise.all([
      runBillingTick(api.h.ctx, { batchSize: 2 }),
      runBillingTick(api.h.ctx, { batchSize: 2 }),
      billUsage(api.h.ctx, { now: api.h.clock.now(), batchSize: 1 }),
    ]);
    for (const sub of subs) {
      expect((await chargesOfKind(api, sub.subscriptionId, "usage")).length).toBeLessThanOrEqual(1);
    }
    // A subscription a tick found locked (SKIP LOCKED: by another tick's step, or by the worker
    // settling one of its charges) is billed by a later tick, as the scheduler's next one would.
    await eventually(async () => {
      await runBillingTick(api.h.ctx, { batchSize: 50 });
      for (const sub of subs) {
        expect(await chargesOfKind(api, sub.subscriptionId, "period")).toHaveLength(2);
        expect(await chargesOfKind(api, sub.subscriptionId, "usage")).toHaveLength(1);
      }
    });
    for (const [i, sub] of subs.entries()) {
      const [usage] = await statusesOfKind(api, sub.subscriptionId, "usage", ["paid"]);
      // (10 × (i + 1) + 7) calls × 0.10
      expect(usage!.amountMinor).toBe((10 * (i + 1) + 7) * 10);
      // February's period charge and January's usage are collected side by side, in either order.
      await statusesOfKind(api, sub.subscriptionId, "period", ["paid", "paid"]);
      const amounts = (await collections(api.h, sub.cardToken)).map((payment) => payment.amount);
      expect(amounts.sort()).toEqual(["50.00", "50.00", toDecimalString(usage!.amountMinor, "QAR")].sort());
    }
  });

  it("turns away a second usage charge for a period even past the locks", async () => {
    const ctx = api.h.ctx;
    // Found before anything was billed, as by a tick whose snapshot predates another's commit.
    const window = scanWindow(await usagePlans(ctx.db.$client), DateTime.fromISO(GRACE_ENDS), 24);
    const sub = subs[0]!;
    const [period] = await chargesOfKind(api, sub.subscriptionId, "period");
    const stale = {
      periodChargeId: period!.id,
      subscriptionId: sub.subscriptionId,
      customerId: sub.customerId,
      planId: sub.planId,
      currency: "QAR",
      start: DateTime.fromJSDate(period!.periodStart),
      end: DateTime.fromJSDate(period!.periodEnd),
      recurringToken: false,
    };
    const again = await ctx.db.$client.begin((tx) =>
      insertUsageCharges(
        tx,
        [{ period: stale, lines: [], totalMinor: 999, usagePart: null }],
        DateTime.fromISO(GRACE_ENDS),
      ),
    );
    expect(again).toEqual({ created: 0, toCollect: [], events: [] });
    const due = await ctx.db.$client.begin((tx) =>
      lockDuePeriods(tx, window, { batchSize: 50, after: undefined }),
    );
    expect(due.periods).toEqual([]);
    expect(await chargesOfKind(api, sub.subscriptionId, "usage")).toHaveLength(1);
  });

  it("skips, and logs once a tick, a subscription that pays with a recurring card token; leaves a canceled one out", async () => {
    const ctx = api.h.ctx;
    api.h.clock.set(DateTime.fromISO("2026-03-01T00:00:00Z"));
    const recurring = await createSubscription(api.h, {
      kind: "autosave",
      amountMinor: 5_000,
      timezone: "UTC",
    });
    const canceled = await createSubscription(api.h, {
      kind: "autosave",
      amountMinor: 5_000,
      timezone: "UTC",
    });
    for (const sub of [recurring, canceled]) {
      expect(
        (await put(api, `/v1/plans/${sub.planId}/usage-prices/api_calls`, { amount: "0.10" })).statusCode,
      ).toBe(201);
    }
    await runBillingTick(ctx, { batchSize: 50 });
    for (const sub of [recurring, canceled])
      await statusesOfKind(api, sub.subscriptionId, "period", ["paid"]);
    // The card became a recurring token for the plan's amount (as a plan change could leave it).
    await replaceCard(api.h, recurring, { kind: "recurring", amountMinor: 5_000 });
    await ctx.db
      .update(subscriptions)
      .set({ status: "canceled", canceledAt: new Date("2026-03-10T00:00:00Z"), nextBillingAt: null })
      .where(eq(subscriptions.id, canceled.subscriptionId));

    api.h.clock.set(DateTime.fromISO("2026-04-02T00:00:00Z"));
    const warn = vi.spyOn(ctx.logger, "warn");
    try {
      const counts = await billUsage(ctx, { now: ctx.clock.now(), batchSize: 1 });
      // (The six subscriptions above have February and March billed here, at zero.)
      expect(counts).toMatchObject({ chargesCreated: 12, skippedRecurring: 1 });
      const skipped = warn.mock.calls.filter(([, message]) => String(message).startsWith("usage not billed"));
      expect(skipped).toHaveLength(1);
      expect(skipped[0]![0]).toMatchObject({ periods: 1, subscriptions: [recurring.subscriptionId] });
    } finally {
      warn.mockRestore();
    }
    expect(await chargesOfKind(api, recurring.subscriptionId, "usage")).toEqual([]);
    expect(await chargesOfKind(api, canceled.subscriptionId, "usage")).toEqual([]);
  });
});
