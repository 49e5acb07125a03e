import { asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cancelSubscription } from "../../../src/cancellation/index.js";
import { callGateway, processCharge, recordAttempt, recordOutcome } from "../../../src/charging/index.js";
import { markAttemptUnknown } from "../../../src/charging/mark-attempt-unknown.js";
import { charges, events } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  attemptsOf,
  CARDS,
  chargesOf,
  collections,
  createSubscription,
  subscriptionRow,
} from "./fixtures.js";

/**
 * A subscription canceled immediately while one of its charges has an attempt in flight: cancel
 * leaves that charge to its outcome. When the outcome is that no money moved (a decline, or an
 * unknown outcome that CheckStatus proves was never taken), the card of the canceled subscription
 * must not be charged again: the outcome's own transaction cancels the charge, no retry is
 * scheduled and no new GetnewPayment is sent. When the money WAS taken, the charge is paid, the
 * subscription stays canceled, and an operator is told (`charge.paid_after_cancellation`); nothing
 * is refunded automatically.
 */
describe("cancel immediately while an attempt is in flight", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness();
  });
  afterEach(() => h?.close());

  async function eventsOf(chargeId: string) {
    return h.ctx.db
      .select({ type: events.type, data: events.data })
      .from(events)
      .where(eq(events.chargeId, chargeId))
      .orderBy(asc(events.id));
  }

  async function inFlightThenCanceled(card?: string) {
    const sub = await createSubscription(h, card ? { card } : {});
    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesCreated: 1 });
    const [charge] = await chargesOf(h, sub.subscriptionId);
    const attempt = await recordAttempt(h.ctx, charge!, { actor: "system", forced: false });
    expect(attempt).not.toBeNull();
    const canceled = await cancelSubscription(h.ctx, {
      subscriptionId: sub.subscriptionId,
      mode: "immediately",
      actor: "api:test",
    });
    expect(canceled.canceledChargeIds).toEqual([]);
    return { sub, charge: charge!, attempt: attempt! };
  }

  it("an unknown outcome found never taken: the charge is canceled, not sent again", async () => {
    const { sub, charge, attempt } = await inFlightThenCanceled();
    // The call timed out before reaching the gateway.
    await markAttemptUnknown(h.ctx, {
      chargeId: charge.id,
      attemptId: attempt.id,
      attemptNumber: attempt.attemptNumber,
      orderId: attempt.orderId,
      why: "timeout",
      countTry: false,
      actor: "gateway",
    });

    expect(await processCharge(h.ctx, charge.id, { quietPeriodMs: 0 })).toMatchObject({
      kind: "skipped",
      reason: "settled",
    });

    expect(await collections(h, sub.cardToken)).toHaveLength(0);
    const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge.id));
    expect(row!.status).toBe("canceled");
    expect(row!.nextAttemptAt).toBeNull();
    expect((await attemptsOf(h, charge.id)).map((a) => a.status)).toEqual(["failed_permanently"]);
    // Canceled by the release itself, not later by the backstop.
    const logged = await eventsOf(charge.id);
    expect(logged.map((e) => e.type)).toEqual([
      "charge.created",
      "charge.attempt_started",
      "charge.attempt_unknown",
      "charge.attempt_released",
      "charge.canceled",
    ]);
    expect(logged.at(-1)!.data).toEqual({ reason: "subscription canceled", previous_status: "processing" });
  });

  it("a soft decline after the cancel: the retry is never sent", async () => {
    const { sub, charge, attempt } = await inFlightThenCanceled(CARDS.alwaysDeclined);
    const report = await callGateway(h.ctx, {
      cardToken: sub.cardToken,
      kind: "recurring",
      orderId: attempt.orderId,
      amount: { minor: charge.amountMinor, currency: charge.currency },
    });
    expect(report.kind).toBe("declined");
    const recorded = await recordOutcome(h.ctx, {
      chargeId: charge.id,
      attempt,
      report: report as Extract<typeof report, { kind: "declined" }>,
      actor: "gateway",
    });
    expect(recorded).toMatchObject({ kind: "declined", chargeStatus: "canceled", nextAttemptAt: null });
    expect(await collections(h, sub.cardToken)).toHaveLength(1);

    // Canceled in the outcome's transaction: the decline is logged, no retry is announced.
    const [settled] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge.id));
    expect(settled).toMatchObject({ status: "canceled", nextAttemptAt: null });
    const logged = await eventsOf(charge.id);
    expect(logged.map((e) => e.type)).toEqual([
      "charge.created",
      "charge.attempt_started",
      "charge.failed",
      "charge.canceled",
    ]);
    expect(logged.at(-1)!.data).toEqual({ reason: "subscription canceled", previous_status: "processing" });

    // Nothing comes due, forced or not, and nothing reaches the gateway again.
    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesEnqueued: 0 });
    await processCharge(h.ctx, charge.id, { force: true });
    h.clock.advance({ days: 30 });
    await processCharge(h.ctx, charge.id);

    expect(await collections(h, sub.cardToken)).toHaveLength(1);
    const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge.id));
    expect(row!.status).toBe("canceled");
    expect(row!.nextAttemptAt).toBeNull();
    expect((await attemptsOf(h, charge.id)).map((a) => a.status)).toEqual(["declined"]);
  });

  it("money taken after the cancel (reply lost, found on reconciliation): paid, still canceled, flagged once", async () => {
    const { sub, charge, attempt } = await inFlightThenCanceled();
    const warn = vi.spyOn(h.ctx.logger, "warn");
    // The gateway takes the money but the reply never arrives.
    await h.simAdmin("POST", "/_sim/faults", {
      operation: "GetnewPayment",
      kind: "apply_then_drop",
      times: 1,
    });
    const report = await callGateway(h.ctx, {
      cardToken: sub.cardToken,
      kind: "recurring",
      orderId: attempt.orderId,
      amount: { minor: charge.amountMinor, currency: charge.currency },
    });
    expect(report.kind).toBe("unknown");
    await markAttemptUnknown(h.ctx, {
      chargeId: charge.id,
      attemptId: attempt.id,
      attemptNumber: attempt.attemptNumber,
      orderId: attempt.orderId,
      why: "connection dropped",
      countTry: false,
      actor: "gateway",
    });

    // Reconciliation finds it SUCCESS; a second run changes nothing.
    const result = await processCharge(h.ctx, charge.id, { quietPeriodMs: 0 });
    expect(result).toMatchObject({ kind: "paid", chargeId: charge.id });
    expect(await processCharge(h.ctx, charge.id, { quietPeriodMs: 0, force: true })).toMatchObject({
      kind: "skipped",
      reason: "settled",
    });

    const ledger = await collections(h, sub.cardToken);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ order_id: attempt.orderId, status: "SUCCESS" });
    const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge.id));
    expect(row).toMatchObject({ status: "paid", paidTransactionId: ledger[0]!.transaction_id });
    const subscription = await subscriptionRow(h, sub.subscriptionId);
    expect(subscription.status).toBe("canceled");

    const flagged = (await eventsOf(charge.id)).filter((e) => e.type === "charge.paid_after_cancellation");
    expect(flagged).toHaveLength(1);
    expect(flagged[0]!.data).toEqual({
      attempt: 1,
      charge_id: charge.id,
      subscription_id: sub.subscriptionId,
      transaction_id: ledger[0]!.transaction_id,
      amount_minor: charge.amountMinor,
      currency: charge.currency,
      canceled_at: subscription.canceledAt!.toISOString(),
    });
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ chargeId: charge.id, transactionId: ledger[0]!.transaction_id }),
      expect.stringContaining("paid after its subscription was canceled"),
    );
    // Not refunded automatically.
    const { refunds } = await h.simAdmin<{ refunds: { transaction_id: string }[] }>("GET", "/_sim/ledger");
    expect(refunds.filter((r) => r.transaction_id === ledger[0]!.transaction_id)).toHaveLength(0);
  });
});
