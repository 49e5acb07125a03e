import { asc, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type ChargeRetryLaterError,
  processCharge,
  processChargeBatch,
  recordAttempt,
  recordOutcome,
} from "../../../src/charging/index.js";
import { charges, events } from "../../../src/db/schema/index.js";
import { GatewayDeclinedError } from "../../../src/gateway/index.js";
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
 * Defence in depth: an attempt stored as declined without the gateway's transaction id
 * (what a bare `{result: 0}` left before such replies counted as unknown) is no proof that no money
 * moved. Before any new attempt of its charge, CheckStatus on that attempt's orderId settles it:
 * paid means the charge is paid by that attempt and nothing is sent; a real decline or a quiet "not
 * found" lets the retry go; a CheckStatus that cannot answer holds the retry.
 */
describe("a decline stored without a transaction id", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness();
  });
  afterEach(() => h?.close());

  /**
   * A subscription whose first attempt was recorded as declined without a transaction id; `sent`
   * says whether that attempt reached the gateway (which then applied it as the card says).
   */
  async function storedBareDecline(options: { card?: string; sent: boolean }) {
    const sub = await createSubscription(h, { card: options.card ?? CARDS.approves });
    expect(await runBillingTick(h.ctx, { batchSize: 10 })).toMatchObject({ chargesCreated: 1 });
    const [charge] = await chargesOf(h, sub.subscriptionId);
    const attempt = (await recordAttempt(h.ctx, charge!, { actor: "system", forced: false }))!;
    if (options.sent) {
      await h.ctx.gateway.legacy
        .getNewPayment({ cardToken: sub.cardToken, orderId: attempt.orderId })
        .catch((error: unknown) => {
          if (!(error instanceof GatewayDeclinedError)) throw error;
        });
    }
    // The row as the engine stored a bare {result: 0} before: declined, no transaction id.
    const stored = await recordOutcome(h.ctx, {
      chargeId: charge!.id,
      attempt,
      report: { kind: "declined", description: "payment declined", transactionId: null as unknown as string },
      actor: "gateway",
    });
    expect(stored).toMatchObject({ kind: "declined", chargeStatus: "retrying" });
    expect(await attemptsOf(h, charge!.id)).toMatchObject([
      { status: "declined", gatewayTransactionId: null },
    ]);
    return { sub, chargeId: charge!.id, attempt };
  }

  const dueAgain = () => h.clock.advance({ days: 1 });

  async function eventTypes(chargeId: string) {
    const rows = await h.ctx.db
      .select({ type: events.type, data: events.data })
      .from(events)
      .where(eq(events.chargeId, chargeId))
      .orderBy(asc(events.id));
    return rows;
  }

  it("found paid before the retry: the charge is paid by that attempt and the card is not charged again", async () => {
    const bare = await storedBareDecline({ sent: true });
    // Beside it in the batch, a charge whose decline carries its transaction id: no extra call.
    const declining = await createSubscription(h, { card: CARDS.alwaysDeclined });
    await runBillingTick(h.ctx, { batchSize: 10 });
    const [other] = await chargesOf(h, declining.subscriptionId);
    await processCharge(h.ctx, other!.id);
    expect(await attemptsOf(h, other!.id)).toMatchObject([
      { status: "declined", gatewayTransactionId: expect.any(String) },
    ]);

    dueAgain();
    const checkStatus = vi.spyOn(h.ctx.gateway.legacy, "checkStatus");
    const { results, failures } = await processChargeBatch(h.ctx, [bare.chargeId, other!.id]);
    expect(failures.size).toBe(0);

    const [payment, ...more] = await collections(h, bare.sub.cardToken);
    expect(more).toEqual([]);
    expect(payment).toMatchObject({ order_id: bare.attempt.orderId, status: "SUCCESS" });
    expect(results.get(bare.chargeId)).toEqual({
      kind: "paid",
      chargeId: bare.chargeId,
      attemptNumber: 1,
      transactionId: payment!.transaction_id,
    });
    const [charge] = await h.ctx.db.select().from(charges).where(eq(charges.id, bare.chargeId));
    expect(charge).toMatchObject({
      status: "paid",
      attemptCount: 1,
      paidTransactionId: payment!.transaction_id,
      nextAttemptAt: null,
    });
    expect(await attemptsOf(h, bare.chargeId)).toMatchObject([
      { attemptNumber: 1, status: "approved", gatewayTransactionId: payment!.transaction_id },
    ]);
    expect((await subscriptionRow(h, bare.sub.subscriptionId)).status).toBe("active");
    const logged = await eventTypes(bare.chargeId);
    expect(logged.map((e) => e.type).slice(-3)).toEqual([
      "charge.decline_checked",
      "charge.succeeded",
      "subscription.state_changed",
    ]);
    expect(logged.at(-3)!.data).toMatchObject({ attempt: 1, order_id: bare.attempt.orderId, found: "paid" });

    // Only the decline without a transaction id cost a status check; the other charge was retried.
    expect(checkStatus).toHaveBeenCalledTimes(1);
    expect(checkStatus).toHaveBeenCalledWith({ orderId: bare.attempt.orderId });
    expect(results.get(other!.id)).toMatchObject({ kind: "declined", attemptNumber: 2 });
  });

  it("holds the retry while CheckStatus cannot settle it, and sends it once a quiet attempt is not found", async () => {
    const { sub, chargeId, attempt } = await storedBareDecline({ sent: false });
    dueAgain();

    await h.simAdmin("POST", "/_sim/faults", { operation: "CheckStatus", kind: "error5xx" });
    const held = await processCharge(h.ctx, chargeId, { quietPeriodMs: 0 }).catch((e: unknown) => e);
    expect(held).toMatchObject({ name: "DeclineUnverifiedError", chargeId, jobAttempt: 2 });
    expect((held as ChargeRetryLaterError).message).toContain(attempt.orderId);
    expect(await attemptsOf(h, chargeId)).toHaveLength(1);
    const [waiting] = await h.ctx.db.select().from(charges).where(eq(charges.id, chargeId));
    expect(waiting).toMatchObject({ status: "retrying", attemptCount: 1 });

    // "Not found" about an attempt sent moments ago may still become a payment: held too.
    await h.simAdmin("DELETE", "/_sim/faults");
    await expect(processCharge(h.ctx, chargeId)).rejects.toMatchObject({ name: "DeclineUnverifiedError" });
    expect(await attemptsOf(h, chargeId)).toHaveLength(1);
    expect(await collections(h, sub.cardToken)).toEqual([]);

    // Quiet and still not found: nothing was taken, and the retry goes.
    expect(await processCharge(h.ctx, chargeId, { quietPeriodMs: 0 })).toMatchObject({
      kind: "paid",
      attemptNumber: 2,
    });
    const ledger = await collections(h, sub.cardToken);
    expect(ledger.map((p) => p.order_id)).toEqual([`chg_${chargeId}_2`]);
    expect((await attemptsOf(h, chargeId)).map((a) => a.status)).toEqual(["declined", "approved"]);
  });

  it("a real decline is confirmed with its transaction id and the retry goes", async () => {
    const { sub, chargeId, attempt } = await storedBareDecline({ card: CARDS.alwaysDeclined, sent: true });
    dueAgain();

    expect(await processCharge(h.ctx, chargeId)).toMatchObject({ kind: "declined", attemptNumber: 2 });
    const ledger = await collections(h, sub.cardToken);
    expect(ledger.map((p) => [p.order_id, p.status])).toEqual([
      [attempt.orderId, "FAILURE"],
      [`chg_${chargeId}_2`, "FAILURE"],
    ]);
    expect(await attemptsOf(h, chargeId)).toMatchObject([
      { attemptNumber: 1, status: "declined", gatewayTransactionId: ledger[0]!.transaction_id },
      { attemptNumber: 2, status: "declined", gatewayTransactionId: ledger[1]!.transaction_id },
    ]);
  });
});
