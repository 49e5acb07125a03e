import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { events, refunds } from "../../../src/db/schema/index.js";
import { latePaymentReport } from "../../../src/late-payments/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { tickAndCheck } from "../../support/tick.js";
import {
  attemptsOf,
  CARDS,
  collections,
  createSubscription,
  eventually,
  onlyCharge,
  subscriptionRow,
} from "./fixtures.js";

/**
 * A gateway that applies a payment after we stopped waiting for it. Attempt 1 gets a 5xx and
 * CheckStatus does not know its orderId once it is quiet, so it is closed as "no money moved" and
 * stays watched; then the gateway applies it after all (here: a GetnewPayment under attempt 1's
 * orderId, as a gateway finishing a backlog would). The late-payments sweep finds it on its next
 * check (made due by moving late_check_at, i.e. time passing) and makes the money right.
 */
describe("payments the gateway applies late", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness({ gatewayTimeoutMs: 300 });
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100, quietPeriodMs: 0 });
  });
  afterEach(() => h?.close());

  const fault = (spec: Record<string, unknown>) => h.simAdmin("POST", "/_sim/faults", spec);
  const lateCheckDue = () =>
    h.ctx.db.$client`update charge_attempts set late_check_at = now() where late_check_at is not null`;
  const eventsOf = (chargeId: string, type: string) =>
    h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chargeId, chargeId), eq(events.type, type)));

  it("refunds the late payment automatically when a retry had already paid the period", async () => {
    const sub = await createSubscription(h);
    await fault({ operation: "GetnewPayment", kind: "error5xx", times: 1 });
    await tickAndCheck(h.ctx, { batchSize: 10 });
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "paid" });
    const [first, second] = await attemptsOf(h, charge.id);
    expect(first).toMatchObject({ status: "failed_permanently", declineCode: "not_found", lateChecks: 0 });
    expect(first!.lateCheckAt).not.toBeNull();
    expect(second).toMatchObject({ status: "approved" });

    // Still not found: the watch asks again later and changes nothing else.
    await lateCheckDue();
    expect(await tickAndCheck(h.ctx, { batchSize: 10 })).toMatchObject({
      lateChecks: 1,
      latePaymentsFound: 0,
    });
    expect((await attemptsOf(h, charge.id))[0]).toMatchObject({
      status: "failed_permanently",
      lateChecks: 1,
    });

    const late = await h.ctx.gateway.legacy.getNewPayment({
      cardToken: sub.cardToken,
      orderId: first!.orderId,
    });
    expect(await collections(h, sub.cardToken)).toHaveLength(2);

    await lateCheckDue();
    expect(await tickAndCheck(h.ctx, { batchSize: 10 })).toMatchObject({
      lateChecks: 1,
      latePaymentsFound: 1,
      duplicatesRefunded: 1,
    });
    const [duplicate] = await attemptsOf(h, charge.id);
    expect(duplicate).toMatchObject({
      status: "approved",
      gatewayTransactionId: late.transactionId,
      lateCheckAt: null,
    });
    expect(duplicate!.duplicateAt).not.toBeNull();
    // The charge stays paid by the retry; the late money goes back.
    expect(await onlyCharge(h, sub.subscriptionId, { status: "paid" })).toMatchObject({
      paidTransactionId: second!.gatewayTransactionId,
    });
    const [refund] = await h.ctx.db.select().from(refunds).where(eq(refunds.chargeId, charge.id));
    expect(refund).toMatchObject({
      reason: "duplicate",
      status: "completed",
      refundedTransactionId: late.transactionId,
      chargeAttemptId: duplicate!.id,
    });
    const refundedAtGateway = (await collections(h, sub.cardToken)).find(
      (p) => p.order_id === first!.orderId,
    );
    expect(refundedAtGateway).toMatchObject({ refunded: true });
    expect(await eventsOf(charge.id, "charge.payment_found_late")).toMatchObject([
      { data: { resolution: "duplicate", attempt: 1, transaction_id: late.transactionId } },
    ]);
    expect(await eventsOf(charge.id, "charge.duplicate_refunded")).toHaveLength(1);
    expect(await latePaymentReport(h.ctx.db.$client)).toEqual({
      watched: 0,
      foundLatePaid: 0,
      duplicatesDetected: 1,
      duplicatesRefunded: 1,
      duplicatesLeft: 0,
    });

    // Nothing more to do: a later tick neither checks nor refunds again.
    expect(await tickAndCheck(h.ctx, { batchSize: 10 })).toMatchObject({
      lateChecks: 0,
      duplicatesRefunded: 0,
    });
  });

  it("pays a charge in dunning with the late payment and brings the subscription back to active", async () => {
    const sub = await createSubscription(h, { card: CARDS.alwaysDeclined });
    const payer = await createSubscription(h);
    await fault({ operation: "GetnewPayment", kind: "error5xx", times: 1 });
    await tickAndCheck(h.ctx, { batchSize: 10 });
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "retrying" });
    await eventually(async () =>
      expect((await attemptsOf(h, charge.id)).map((a) => a.status)).toEqual([
        "failed_permanently",
        "declined",
      ]),
    );
    expect(await subscriptionRow(h, sub.subscriptionId)).toMatchObject({ status: "past_due" });
    const [first] = await attemptsOf(h, charge.id);
    expect(first).toMatchObject({ status: "failed_permanently", declineCode: "not_found" });

    // The gateway now holds a payment under attempt 1's orderId (taken with a card that approves).
    const late = await h.ctx.gateway.legacy.getNewPayment({
      cardToken: payer.cardToken,
      orderId: first!.orderId,
    });
    await lateCheckDue();
    expect(await tickAndCheck(h.ctx, { batchSize: 10 })).toMatchObject({ latePaymentsFound: 1 });

    expect(await onlyCharge(h, sub.subscriptionId, { status: "paid" })).toMatchObject({
      paidTransactionId: late.transactionId,
      nextAttemptAt: null,
    });
    expect(await subscriptionRow(h, sub.subscriptionId)).toMatchObject({ status: "active" });
    expect(await eventsOf(charge.id, "charge.payment_found_late")).toMatchObject([
      { data: { resolution: "paid", charge_status: "retrying" } },
    ]);
    expect(await eventsOf(charge.id, "charge.succeeded")).toMatchObject([{ data: { late: true } }]);
    expect(await h.ctx.db.select().from(refunds)).toEqual([]);
    // The dunning retry that was due never goes out: the ledger holds only the declined attempt.
    expect((await collections(h, sub.cardToken)).map((p) => p.status)).toEqual(["FAILURE"]);
  });

  it("stops watching once the gateway reports the payment as failed", async () => {
    const sub = await createSubscription(h);
    await fault({ operation: "GetnewPayment", kind: "error5xx", times: 1 });
    await tickAndCheck(h.ctx, { batchSize: 10 });
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "paid" });
    const [first] = await attemptsOf(h, charge.id);
    const decliner = await createSubscription(h, { card: CARDS.alwaysDeclined });
    await expect(
      h.ctx.gateway.legacy.getNewPayment({ cardToken: decliner.cardToken, orderId: first!.orderId }),
    ).rejects.toThrow("Insufficient funds");

    await lateCheckDue();
    expect(await tickAndCheck(h.ctx, { batchSize: 10 })).toMatchObject({
      lateChecks: 1,
      latePaymentsFound: 0,
    });
    expect((await attemptsOf(h, charge.id))[0]).toMatchObject({
      status: "failed_permanently",
      lateCheckAt: null,
    });
  });
});
