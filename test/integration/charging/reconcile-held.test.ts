import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ChargeNotFoundError,
  ChargeNotHeldError,
  reconcileHeldCharge,
  startChargeWorker,
} from "../../../src/charging/index.js";
import { events } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { attemptsOf, collections, createSubscription, onlyCharge } from "./fixtures.js";

/**
 * An operator settles a charge held for review (its outcome stayed unknown) from one more
 * CheckStatus: money that moved is recorded as paid, never taken again; an attempt the gateway
 * never registered is closed and the charge is collected by the next tick, exactly once.
 */
describe("reconciling a charge held for review", () => {
  let h: EngineHarness;
  const OPERATOR = "ops:alice";

  beforeEach(async () => {
    h = await createEngineHarness({ gatewayTimeoutMs: 300 });
    h.ctx.config = { ...h.ctx.config, RECONCILE_MAX_TRIES: 3 };
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
  });
  afterEach(() => h?.close());

  const fault = (spec: Record<string, unknown>) => h.simAdmin("POST", "/_sim/faults", spec);

  /** Bills the subscription with `payment` faulting GetnewPayment and CheckStatus failing until held. */
  async function heldCharge(payment: "apply_then_drop" | "hang") {
    const sub = await createSubscription(h);
    await fault({ operation: "GetnewPayment", kind: payment, times: 1 });
    await fault({ operation: "CheckStatus", kind: "error5xx" });
    await runBillingTick(h.ctx, { batchSize: 10 });
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "needs_review" });
    expect(await attemptsOf(h, charge.id)).toMatchObject([{ status: "needs_review", reconcileTries: 3 }]);
    await h.simAdmin("DELETE", "/_sim/faults");
    return { sub, charge };
  }

  async function reviewChecks(chargeId: string) {
    return h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chargeId, chargeId), eq(events.type, "charge.review_checked")));
  }

  it("settles as paid a held charge whose payment went through, and charges nothing more", async () => {
    const { sub, charge } = await heldCharge("apply_then_drop");
    const ledger = await collections(h, sub.cardToken);
    expect(ledger).toHaveLength(1);

    const result = await reconcileHeldCharge(h.ctx, charge.id, { actor: OPERATOR });
    expect(result).toEqual({
      outcome: "paid",
      chargeId: charge.id,
      transactionId: ledger[0]!.transaction_id,
    });

    const paid = await onlyCharge(h, sub.subscriptionId, { status: "paid" });
    expect(paid.paidTransactionId).toBe(ledger[0]!.transaction_id);
    expect(await attemptsOf(h, charge.id)).toMatchObject([
      { status: "approved", orderId: `chg_${charge.id}_1`, gatewayTransactionId: ledger[0]!.transaction_id },
    ]);
    const succeeded = await h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chargeId, charge.id), eq(events.type, "charge.succeeded")));
    expect(succeeded).toMatchObject([{ actor: OPERATOR }]);
    expect(await reviewChecks(charge.id)).toMatchObject([{ actor: OPERATOR, data: { outcome: "paid" } }]);

    // Settled: a second reconcile is refused, and the tick finds nothing to collect.
    await expect(reconcileHeldCharge(h.ctx, charge.id, { actor: OPERATOR })).rejects.toBeInstanceOf(
      ChargeNotHeldError,
    );
    h.clock.advance("P1D");
    await runBillingTick(h.ctx, { batchSize: 10, stuckAfterMs: 0 });
    expect(await collections(h, sub.cardToken)).toHaveLength(1);
  });

  it("releases a held attempt the gateway never registered; the next tick collects it once", async () => {
    const { sub, charge } = await heldCharge("hang");
    expect(await collections(h, sub.cardToken)).toHaveLength(0);

    // "Not found" so soon after the call may be a request still on its way: nothing changes.
    expect(await reconcileHeldCharge(h.ctx, charge.id, { actor: OPERATOR })).toMatchObject({
      outcome: "still_unknown",
      chargeId: charge.id,
    });
    await onlyCharge(h, sub.subscriptionId, { status: "needs_review" });
    expect(await attemptsOf(h, charge.id)).toMatchObject([{ status: "needs_review" }]);

    // Once the attempt is quiet, "not found" means no money moved.
    const result = await reconcileHeldCharge(h.ctx, charge.id, { actor: OPERATOR, quietPeriodMs: 0 });
    expect(result).toEqual({ outcome: "released", chargeId: charge.id, chargeStatus: "retrying" });
    const released = await onlyCharge(h, sub.subscriptionId, { status: "retrying" });
    expect(released.nextAttemptAt?.getTime()).toBeLessThanOrEqual(h.clock.now().toMillis());
    expect(await attemptsOf(h, charge.id)).toMatchObject([
      { status: "failed_permanently", declineCode: "not_found" },
    ]);
    // Released, not charged: GetnewPayment is left to the tick and the worker.
    expect(await collections(h, sub.cardToken)).toHaveLength(0);
    const releasedEvents = await h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chargeId, charge.id), eq(events.type, "charge.attempt_released")));
    expect(releasedEvents).toMatchObject([{ actor: OPERATOR }]);
    expect(
      (await reviewChecks(charge.id)).map((e) => [e.actor, (e.data as { outcome: string }).outcome]),
    ).toEqual([
      [OPERATOR, "still_unknown"],
      [OPERATOR, "released"],
    ]);

    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesEnqueued: 1 });
    await onlyCharge(h, sub.subscriptionId, { status: "paid", attemptCount: 2 });
    expect((await attemptsOf(h, charge.id)).map((a) => [a.attemptNumber, a.status])).toEqual([
      [1, "failed_permanently"],
      [2, "approved"],
    ]);
    await runBillingTick(h.ctx, { batchSize: 10, stuckAfterMs: 0 });
    const ledger = await collections(h, sub.cardToken);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ order_id: `chg_${charge.id}_2`, status: "SUCCESS" });
  });

  it("refuses a charge that is not held, and one that does not exist, without asking the gateway", async () => {
    const sub = await createSubscription(h);
    await runBillingTick(h.ctx, { batchSize: 10 });
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "paid" });

    const refusal = reconcileHeldCharge(h.ctx, charge.id, { actor: OPERATOR });
    await expect(refusal).rejects.toBeInstanceOf(ChargeNotHeldError);
    await expect(refusal).rejects.toMatchObject({ chargeStatus: "paid" });
    await expect(reconcileHeldCharge(h.ctx, randomUUID(), { actor: OPERATOR })).rejects.toBeInstanceOf(
      ChargeNotFoundError,
    );
    expect(await reviewChecks(charge.id)).toHaveLength(0);
    expect(await collections(h, sub.cardToken)).toHaveLength(1);
    expect(await attemptsOf(h, charge.id)).toMatchObject([{ status: "approved" }]);
  });
});
