import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { events } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  attemptsOf,
  chargesOf,
  collections,
  createSubscription,
  eventually,
  onlyCharge,
} from "./fixtures.js";

/**
 * Gateway faults on the money-moving call. Whatever happens on the wire, the ledger of the
 * simulator must show at most one payment per charge, and an outcome we cannot learn must wait
 * for an operator instead of being guessed.
 */
describe("gateway faults while charging", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness({ gatewayTimeoutMs: 300 });
  });
  afterEach(() => h?.close());

  const fault = (spec: Record<string, unknown>) => h.simAdmin("POST", "/_sim/faults", spec);

  it("reconciles a payment applied but never answered (apply_then_drop): paid once, not charged again", async () => {
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
    const sub = await createSubscription(h);
    await fault({ operation: "GetnewPayment", kind: "apply_then_drop", times: 1 });

    await runBillingTick(h.ctx, { batchSize: 10 });
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "paid" });

    const attempts = await attemptsOf(h, charge.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ status: "approved", orderId: `chg_${charge.id}_1` });
    const ledger = await collections(h, sub.cardToken);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ order_id: attempts[0]!.orderId, status: "SUCCESS" });
    expect(charge.paidTransactionId).toBe(ledger[0]!.transaction_id);
    const unknown = await h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chargeId, charge.id), eq(events.type, "charge.attempt_unknown")));
    expect(unknown).toHaveLength(1);
  });

  it("holds an attempt for review when the call hangs and CheckStatus keeps failing: no payment is made", async () => {
    h.ctx.config = { ...h.ctx.config, RECONCILE_MAX_TRIES: 3 };
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
    const sub = await createSubscription(h);
    await fault({ operation: "GetnewPayment", kind: "hang", times: 1 });
    await fault({ operation: "CheckStatus", kind: "error5xx" });

    await runBillingTick(h.ctx, { batchSize: 10 });
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "needs_review" });
    const attempts = await attemptsOf(h, charge.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ status: "needs_review", reconcileTries: 3, settledAt: null });
    const review = await h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chargeId, charge.id), eq(events.type, "charge.needs_review")));
    expect(review).toHaveLength(1);
    expect(review[0]!.data).toMatchObject({ reason: "outcome_unknown" });

    // The gateway answers again: nothing is retried automatically, the operator decides.
    await h.simAdmin("DELETE", "/_sim/faults");
    h.clock.advance("P1D");
    expect(await runBillingTick(h.ctx, { batchSize: 10, stuckAfterMs: 0 })).toMatchObject({
      chargesEnqueued: 0,
      reenqueued: 0,
    });
    expect(await attemptsOf(h, charge.id)).toHaveLength(1);
    expect(await collections(h, sub.cardToken)).toHaveLength(0);
  });

  it("retries with a new attempt once CheckStatus shows a 5xx took no payment", async () => {
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100, quietPeriodMs: 0 });
    const sub = await createSubscription(h);
    await fault({ operation: "GetnewPayment", kind: "error5xx", times: 1 });

    await runBillingTick(h.ctx, { batchSize: 10 });
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "paid" });
    const attempts = await attemptsOf(h, charge.id);
    expect(attempts.map((a) => [a.attemptNumber, a.status, a.declineCode])).toEqual([
      [1, "failed_permanently", "not_found"],
      [2, "approved", null],
    ]);
    const ledger = await collections(h, sub.cardToken);
    expect(ledger.map((p) => p.order_id)).toEqual([`chg_${charge.id}_2`]);
  });

  it('does not trust a fresh "not found": a call may still be on its way', async () => {
    const cautious = startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
    const sub = await createSubscription(h);
    await fault({ operation: "GetnewPayment", kind: "error5xx", times: 1 });

    await runBillingTick(h.ctx, { batchSize: 10 });
    // Every BullMQ retry asks CheckStatus, hears "not found" within the quiet period, and waits.
    const charge = await eventually(async () => {
      const [row] = await chargesOf(h, sub.subscriptionId);
      const failed = await h.ctx.queues.queue("charges").getJobs(["failed"]);
      expect(failed.map((job) => (job.data as { chargeIds: string[] }).chargeIds)).toEqual([[row!.id]]);
      return row!;
    });
    expect(charge.status).toBe("processing");
    expect(await attemptsOf(h, charge.id)).toMatchObject([{ status: "unknown", reconcileTries: 0 }]);
    expect(await collections(h, sub.cardToken)).toHaveLength(0);

    // Later (the quiet period over) the tick finds the attempt stuck and re-enqueues it; the
    // reconciliation then trusts "not found" and a second attempt pays.
    await cautious.close();
    expect(await runBillingTick(h.ctx, { batchSize: 10, stuckAfterMs: 0 })).toMatchObject({ reenqueued: 1 });
    startChargeWorker(h.ctx, { concurrency: 1, ratePerSecond: 100, quietPeriodMs: 0 });
    await onlyCharge(h, sub.subscriptionId, { status: "paid" });
    expect(await collections(h, sub.cardToken)).toHaveLength(1);
  });
});
