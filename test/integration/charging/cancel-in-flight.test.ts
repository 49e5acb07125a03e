import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cancelSubscription } from "../../../src/cancellation/index.js";
import { callGateway, processCharge, recordAttempt, recordOutcome } from "../../../src/charging/index.js";
import { markAttemptUnknown } from "../../../src/charging/mark-attempt-unknown.js";
import { charges } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { attemptsOf, CARDS, chargesOf, collections, createSubscription } from "./fixtures.js";

/**
 * A subscription canceled immediately while one of its charges has an attempt in flight: cancel
 * leaves that charge to its outcome. When the outcome is that no money moved (a decline, or an
 * unknown outcome that CheckStatus proves was never taken), the card of the canceled subscription
 * must not be charged again: the charge is canceled instead of sending a new GetnewPayment.
 */
describe("cancel immediately while an attempt is in flight", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness();
  });
  afterEach(() => h?.close());

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

    await processCharge(h.ctx, charge.id, { quietPeriodMs: 0 });

    expect(await collections(h, sub.cardToken)).toHaveLength(0);
    const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge.id));
    expect(row!.status).toBe("canceled");
    expect(row!.nextAttemptAt).toBeNull();
    expect((await attemptsOf(h, charge.id)).map((a) => a.status)).toEqual(["failed_permanently"]);
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
    await recordOutcome(h.ctx, {
      chargeId: charge.id,
      attempt,
      report: report as Extract<typeof report, { kind: "declined" }>,
      actor: "gateway",
    });
    expect(await collections(h, sub.cardToken)).toHaveLength(1);

    // The retry comes due; the tick and the worker find it from Postgres.
    await processCharge(h.ctx, charge.id, { force: true });
    h.clock.advance({ days: 30 });
    await processCharge(h.ctx, charge.id);

    expect(await collections(h, sub.cardToken)).toHaveLength(1);
    const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge.id));
    expect(row!.status).toBe("canceled");
    expect(row!.nextAttemptAt).toBeNull();
  });
});
