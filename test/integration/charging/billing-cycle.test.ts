import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { subscriptions } from "../../../src/db/schema/index.js";
import {
  BILLING_TICK_SCHEDULER_ID,
  keepBillingTick,
  registerBillingTick,
  runBillingTick,
  startTickWorker,
} from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  attemptsOf,
  chargeStatuses,
  chargesOf,
  collections,
  createSubscription,
  eventTypesOf,
  eventually,
  subscriptionRow,
} from "./fixtures.js";

/**
 * Periods, trials and renewals end to end: real Postgres, Redis queues, the simulator over HTTP,
 * and the controllable clock the engine shares with the simulator. The charge worker runs for real;
 * the test ticks the scheduler and polls the database.
 */
describe("billing cycle", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness({ start: "2026-01-31T09:00:00Z" });
    startChargeWorker(h.ctx, { concurrency: 4, ratePerSecond: 100 });
  });
  afterEach(() => h?.close());

  it("charges three monthly periods on time, keeping the anchor day", async () => {
    const sub = await createSubscription(h);

    for (let period = 0; period < 3; period += 1) {
      if (period > 0) {
        // One minute before the period ends nothing is due; at its end the next period is charged.
        const { nextBillingAt } = await subscriptionRow(h, sub.subscriptionId);
        h.clock.set(DateTime.fromJSDate(nextBillingAt!).minus({ minutes: 1 }));
        expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesCreated: 0 });
        h.clock.set(nextBillingAt!);
      }
      const tick = await runBillingTick(h.ctx, { batchSize: 10 });
      expect(tick).toMatchObject({ chargesCreated: 1, chargesEnqueued: 1 });
      await chargeStatuses(h, sub.subscriptionId, Array(period + 1).fill("paid"));
    }

    const rows = await chargesOf(h, sub.subscriptionId);
    const local = (date: Date) => DateTime.fromJSDate(date).setZone("Asia/Qatar").toISO();
    // Anchored on Jan 31, 12:00 in Qatar: February has no 31st, March does again.
    expect(rows.map((row) => [local(row.periodStart), local(row.periodEnd)])).toEqual([
      ["2026-01-31T12:00:00.000+03:00", "2026-02-28T12:00:00.000+03:00"],
      ["2026-02-28T12:00:00.000+03:00", "2026-03-31T12:00:00.000+03:00"],
      ["2026-03-31T12:00:00.000+03:00", "2026-04-30T12:00:00.000+03:00"],
    ]);
    for (const [index, row] of rows.entries()) {
      expect(row).toMatchObject({
        amountMinor: 10_000,
        currency: "QAR",
        attemptCount: 1,
        nextAttemptAt: null,
      });
      if (index > 0) expect(row.periodStart).toEqual(rows[index - 1]!.periodEnd);
    }

    const ledger = await collections(h, sub.cardToken);
    expect(ledger).toHaveLength(3);
    expect(ledger.every((payment) => payment.status === "SUCCESS")).toBe(true);
    expect(ledger.map((payment) => payment.transaction_id).sort()).toEqual(
      rows.map((row) => row.paidTransactionId).sort(),
    );
    const orderIds = (await Promise.all(rows.map((row) => attemptsOf(h, row.id))))
      .flat()
      .map((a) => a.orderId);
    expect(ledger.map((payment) => payment.order_id).sort()).toEqual(orderIds.sort());

    const subscription = await subscriptionRow(h, sub.subscriptionId);
    expect(subscription.status).toBe("active");
    expect(subscription.currentPeriodStart).toEqual(rows[2]!.periodStart);
    expect(subscription.nextBillingAt).toEqual(rows[2]!.periodEnd);
    expect(await eventTypesOf(h, sub.subscriptionId)).toContain("charge.succeeded");
  });

  it("ends a trial into its first charge", async () => {
    const sub = await createSubscription(h, { trialDays: 14 });

    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesCreated: 0 });
    h.clock.advance("P13D");
    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesCreated: 0 });
    expect(await chargesOf(h, sub.subscriptionId)).toHaveLength(0);

    h.clock.advance("P1D");
    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesCreated: 1 });
    const [charge] = await chargeStatuses(h, sub.subscriptionId, ["paid"]);
    expect(charge!.periodStart).toEqual(sub.anchor.toJSDate());
    await eventually(async () =>
      expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("active"),
    );
    expect(await collections(h, sub.cardToken)).toHaveLength(1);
  });

  it("bills each missed period once when the scheduler fell behind", async () => {
    const sub = await createSubscription(h);
    h.clock.advance("P2M");

    const tick = await runBillingTick(h.ctx, { batchSize: 10 });
    expect(tick.chargesCreated).toBe(3);
    await chargeStatuses(h, sub.subscriptionId, ["paid", "paid", "paid"]);
    // Ticking again finds nothing new: the periods are billed once.
    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesCreated: 0 });
    expect(await collections(h, sub.cardToken)).toHaveLength(3);
  });

  it("cancels at period end instead of renewing", async () => {
    const sub = await createSubscription(h);
    await runBillingTick(h.ctx, { batchSize: 10 });
    await chargeStatuses(h, sub.subscriptionId, ["paid"]);
    await h.ctx.db
      .update(subscriptions)
      .set({ cancelAtPeriodEnd: true })
      .where(eq(subscriptions.id, sub.subscriptionId));

    h.clock.advance("P1M");
    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({
      chargesCreated: 0,
      subscriptionsCanceled: 1,
    });
    const subscription = await subscriptionRow(h, sub.subscriptionId);
    expect(subscription).toMatchObject({ status: "canceled", nextBillingAt: null });
    expect(subscription.canceledAt).toEqual(subscription.currentPeriodEnd);
    expect(await chargesOf(h, sub.subscriptionId)).toHaveLength(1);
    const deactivation = h.ctx.queues.queue("token-deactivation");
    expect(await deactivation.getJobState(`token-deactivation-${sub.paymentMethodId}`)).not.toBe("unknown");
  });

  it("runs ticks from the registered job scheduler", async () => {
    const sub = await createSubscription(h);
    await registerBillingTick(h.ctx, { everySeconds: 0.2 });
    startTickWorker(h.ctx, { batchSize: 10 });
    await chargeStatuses(h, sub.subscriptionId, ["paid"]);
  });

  it("puts the tick's scheduler back when Redis loses it while the scheduler runs", async () => {
    await registerBillingTick(h.ctx, { everySeconds: 0.2 });
    const stop = keepBillingTick(h.ctx, { everySeconds: 0.05 });
    try {
      await h.ctx.queues.obliterate();
      const queue = h.ctx.queues.queue("billing-tick");
      expect(await queue.getJobScheduler(BILLING_TICK_SCHEDULER_ID)).toBeUndefined();
      await eventually(async () =>
        expect(await queue.getJobScheduler(BILLING_TICK_SCHEDULER_ID)).toBeDefined(),
      );

      const sub = await createSubscription(h);
      startTickWorker(h.ctx, { batchSize: 10 });
      await chargeStatuses(h, sub.subscriptionId, ["paid"]);
    } finally {
      stop();
    }
  });
});
