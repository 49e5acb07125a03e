import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { charges, events, paymentMethods, subscriptions } from "../../../src/db/schema/index.js";
import { invoiceJobId } from "../../../src/queue/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { planOfSubscription } from "../../db/fixtures.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import {
  attemptsOf,
  CARDS,
  chargesOf,
  collections,
  createSubscription,
  eventTypesOf,
  onlyCharge,
  replaceCard,
  subscriptionRow,
} from "./fixtures.js";

const START = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });
const day = (n: number) => START.plus({ days: n }).toJSDate();

/** Declines, dunning and unusable cards, end to end with the charge worker running. */
describe("declines and dunning", () => {
  let h: EngineHarness;

  beforeEach(async () => {
    h = await createEngineHarness({ start: START.toISO()! });
    startChargeWorker(h.ctx, { concurrency: 4, ratePerSecond: 100 });
  });
  afterEach(() => h?.close());

  const tick = () => runBillingTick(h.ctx, { batchSize: 10 });

  it("retries a card that never pays at days 1, 3, 5 and 7, then stops: uncollectible, unpaid, invoiced", async () => {
    const sub = await createSubscription(h, { card: CARDS.alwaysDeclined });

    await tick();
    let charge = await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: 1 });
    expect(charge.nextAttemptAt).toEqual(day(1));
    expect(charge.firstFailedAt).toEqual(day(0));
    expect(charge.lastDeclineDescription).toBe("Insufficient funds");
    expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("past_due");

    for (const [attempt, retryDay, nextDay] of [
      [2, 1, 3],
      [3, 3, 5],
      [4, 5, 7],
    ] as const) {
      h.clock.set(day(retryDay));
      expect(await tick()).toMatchObject({ chargesCreated: 0, chargesEnqueued: 1 });
      charge = await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: attempt });
      expect(charge.nextAttemptAt).toEqual(day(nextDay));
    }

    h.clock.set(day(7));
    await tick();
    charge = await onlyCharge(h, sub.subscriptionId, { status: "uncollectible", attemptCount: 5 });
    expect(charge.nextAttemptAt).toBeNull();
    const attempts = await attemptsOf(h, charge.id);
    expect(attempts.map((a) => a.status)).toEqual(Array(5).fill("declined"));
    expect(attempts.every((a) => a.declineCode === "insufficient_funds")).toBe(true);

    const subscription = await subscriptionRow(h, sub.subscriptionId);
    expect(subscription).toMatchObject({ status: "unpaid", nextBillingAt: null });
    const invoices = h.ctx.queues.queue("invoices");
    expect(await invoices.getJobState(invoiceJobId(charge.id))).not.toBe("unknown");
    expect(await eventTypesOf(h, sub.subscriptionId)).toEqual(
      expect.arrayContaining(["subscription.past_due", "charge.retry_scheduled", "subscription.unpaid"]),
    );

    // Months later: no new charge, no new attempt, the invoice job is not duplicated.
    h.clock.advance("P2M");
    expect(await tick()).toMatchObject({ chargesCreated: 0, chargesEnqueued: 0, invoicesEnqueued: 0 });
    expect(await chargesOf(h, sub.subscriptionId)).toHaveLength(1);
    const ledger = await collections(h, sub.cardToken);
    expect(ledger).toHaveLength(5);
    expect(ledger.every((payment) => payment.status === "FAILURE")).toBe(true);
  });

  it("recovers on the second retry with the card the customer saved meanwhile: past_due, then active", async () => {
    const sub = await createSubscription(h, { card: CARDS.alwaysDeclined });
    await tick();
    await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: 1 });
    h.clock.set(day(1));
    await tick();
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: 2 });
    expect(charge.nextAttemptAt).toEqual(day(3));
    expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("past_due");

    // A day later the customer saves a new card: collection resumes on it at the next tick.
    h.clock.set(day(2));
    const card = await replaceCard(h, sub, { card: CARDS.approves });
    expect(await tick()).toMatchObject({ chargesEnqueued: 1 });
    const paid = await onlyCharge(h, sub.subscriptionId, { status: "paid", attemptCount: 3 });
    expect(paid.paidAt).toEqual(day(2));
    const subscription = await subscriptionRow(h, sub.subscriptionId);
    expect(subscription.status).toBe("active");
    expect(subscription.nextBillingAt).toEqual(paid.periodEnd);
    expect(await collections(h, sub.cardToken)).toHaveLength(2);
    expect((await collections(h, card.cardToken)).map((p) => p.status)).toEqual(["SUCCESS"]);
  });

  it('a decline recovered on the second retry: "Do not honour" at the first attempt and at +1 day, approved at +3 days', async () => {
    const sub = await createSubscription(h, { card: CARDS.declinedTwiceThenApproved });

    await tick();
    let charge = await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: 1 });
    expect(charge.lastDeclineDescription).toBe("Do not honour");
    expect(charge.firstFailedAt).toEqual(day(0));
    expect(charge.nextAttemptAt).toEqual(day(1));
    expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("past_due");

    h.clock.set(day(1));
    expect(await tick()).toMatchObject({ chargesCreated: 0, chargesEnqueued: 1 });
    charge = await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: 2 });
    expect(charge.firstFailedAt).toEqual(day(0));
    expect(charge.nextAttemptAt).toEqual(day(3));
    expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("past_due");

    h.clock.set(day(3));
    expect(await tick()).toMatchObject({ chargesCreated: 0, chargesEnqueued: 1 });
    const paid = await onlyCharge(h, sub.subscriptionId, { status: "paid", attemptCount: 3 });
    expect(paid.paidAt).toEqual(day(3));
    expect(paid.nextAttemptAt).toBeNull();
    const attempts = await attemptsOf(h, paid.id);
    expect(attempts.map((a) => a.status)).toEqual(["declined", "declined", "approved"]);
    expect(attempts.slice(0, 2).every((a) => a.declineCode === "do_not_honour")).toBe(true);

    const subscription = await subscriptionRow(h, sub.subscriptionId);
    expect(subscription.status).toBe("active");
    expect(subscription.nextBillingAt).toEqual(paid.periodEnd);
    expect(await eventTypesOf(h, sub.subscriptionId)).toEqual([
      "charge.created",
      "charge.attempt_started",
      "charge.failed",
      "charge.retry_scheduled",
      "subscription.past_due",
      "charge.attempt_started",
      "charge.failed",
      "charge.retry_scheduled",
      "charge.attempt_started",
      "charge.succeeded",
      "subscription.state_changed",
    ]);
    // Exactly three collections on the card: the two declines, then the approval.
    expect((await collections(h, sub.cardToken)).map((p) => p.status)).toEqual([
      "FAILURE",
      "FAILURE",
      "SUCCESS",
    ]);
  });

  it("stops on a token the gateway no longer knows (-7): card unusable, new-card link, invoice", async () => {
    const sub = await createSubscription(h);
    await h.ctx.gateway.legacy.stopRecurring({ cardToken: sub.cardToken });

    // The first refusal is not trusted alone (a gateway that lost its state refuses every card):
    // the card is asked again TOKEN_REFUSAL_CONFIRM_SECONDS later, and nothing else changes.
    await tick();
    const first = await onlyCharge(h, sub.subscriptionId, { status: "retrying" });
    expect(first.nextAttemptAt?.toISOString()).toBe(START.plus({ seconds: 300 }).toUTC().toISO());
    expect(await attemptsOf(h, first.id)).toMatchObject([
      { status: "failed_permanently", declineCode: "-7" },
    ]);
    expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("active");

    h.clock.advance({ seconds: 300 });
    await tick();
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "uncollectible", attemptCount: 2 });
    const attempts = await attemptsOf(h, charge.id);
    expect(attempts.map((a) => [a.status, a.declineCode])).toEqual([
      ["failed_permanently", "-7"],
      ["failed_permanently", "-7"],
    ]);
    // The refusal that retired the card is on the charge itself, not only in the event log.
    expect(charge).toMatchObject({
      lastDeclineCode: "-7",
      lastDeclineDescription: attempts[1]!.declineDescription,
    });
    expect(charge.lastDeclineDescription).toBeTruthy();
    const [method] = await h.ctx.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, sub.paymentMethodId));
    expect(method!.unusableAt).not.toBeNull();
    expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("unpaid");

    const [unusable] = await h.ctx.db.select().from(events).where(eq(events.type, "payment_method.unusable"));
    expect(unusable).toMatchObject({ subscriptionId: sub.subscriptionId, chargeId: charge.id });
    expect(unusable!.data.checkout_url).toMatch(/\/checkout\//);
    expect(unusable!.data.payment_method_id).toBe(sub.paymentMethodId);
    expect(await h.ctx.queues.queue("invoices").getJobState(invoiceJobId(charge.id))).not.toBe("unknown");
    // Two calls, both refused before any payment; the token is not tried again.
    await tick();
    expect(await attemptsOf(h, charge.id)).toHaveLength(2);
    expect(await collections(h, sub.cardToken)).toHaveLength(0);
  });

  it("does not call the gateway with a token known to be expired", async () => {
    const sub = await createSubscription(h);
    await h.ctx.db
      .update(paymentMethods)
      .set({ expiresAt: START.plus({ hours: 1 }).toJSDate() })
      .where(eq(paymentMethods.id, sub.paymentMethodId));

    h.clock.advance({ hours: 1 });
    await tick();
    const charge = await onlyCharge(h, sub.subscriptionId, { status: "uncollectible", attemptCount: 0 });
    expect(await attemptsOf(h, charge.id)).toHaveLength(0);
    expect(await collections(h, sub.cardToken)).toHaveLength(0);
    const [method] = await h.ctx.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, sub.paymentMethodId));
    expect(method!.unusableReason).toBe("card token expired");
  });

  it("ends collection without a link when none can be made (the subscription was canceled)", async () => {
    const sub = await createSubscription(h);
    await h.ctx.db
      .update(paymentMethods)
      .set({ expiresAt: START.plus({ hours: 1 }).toJSDate() })
      .where(eq(paymentMethods.id, sub.paymentMethodId));
    await h.ctx.db
      .update(subscriptions)
      .set({ status: "canceled", canceledAt: day(0), nextBillingAt: null })
      .where(eq(subscriptions.id, sub.subscriptionId));
    // A debt left open by the cancellation, due now.
    await h.ctx.db.insert(charges).values({
      subscriptionId: sub.subscriptionId,
      planId: planOfSubscription(sub.subscriptionId),
      periodStart: day(0),
      periodEnd: day(31),
      amountMinor: 10_000,
      currency: "QAR",
      nextAttemptAt: day(0),
    });

    h.clock.advance({ hours: 1 });
    expect(await tick()).toMatchObject({ chargesCreated: 0, chargesEnqueued: 1 });
    await onlyCharge(h, sub.subscriptionId, { status: "uncollectible", attemptCount: 0 });
    const [unusable] = await h.ctx.db.select().from(events).where(eq(events.type, "payment_method.unusable"));
    expect(unusable!.data).toMatchObject({ checkout_url: null });
    expect(String(unusable!.data.reenrollment_refused)).toMatch(/^subscription_canceled/);
    expect((await subscriptionRow(h, sub.subscriptionId)).status).toBe("canceled");
    // It is not picked up again.
    expect(await tick()).toMatchObject({ chargesEnqueued: 0 });
  });
});
