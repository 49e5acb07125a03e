import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cancelSubscription } from "../../../src/cancellation/index.js";
import { startChargeWorker } from "../../../src/charging/index.js";
import { charges, paymentMethods } from "../../../src/db/schema/index.js";
import { dispatchDueMessages, type MessageContext } from "../../../src/messages/index.js";
import { refundCharge } from "../../../src/refunds/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { notifyExpiringPaymentMethods } from "../../../src/webhooks/index.js";
import { CARDS, chargeStatuses, createSubscription, onlyCharge } from "../charging/fixtures.js";
import { type EnrollmentWorld, startEnrollmentWorld } from "../enrollment/support.js";
import { dueLinkCharge, linkOf, payLink, subscribeByLink } from "../payment-links/support.js";
import { closeMessages, linksIn, messageRows, useMessages } from "./support.js";

/**
 * Each kind of message built from the engine's own flows (payment links, refunds, cancellation,
 * expiring cards, dunning), rendered and kept (no SMTP configured), and a message whose facts
 * moved on before its turn suppressed, saying why.
 */
describe("what each kind of message says", () => {
  let world: EnrollmentWorld;
  let messages: MessageContext;

  beforeEach(async () => {
    world = await startEnrollmentWorld();
    messages = useMessages(world.h);
    startChargeWorker(world.h.ctx, { concurrency: 2, ratePerSecond: 100 });
  });
  afterEach(async () => {
    await world?.close();
    if (world) await closeMessages(world.h);
  });

  const deliverDue = () => dispatchDueMessages(messages, { limit: 50 });

  async function messagesOf(kind: string, customerId?: string) {
    return (await messageRows(world.h)).filter(
      (row) => row.kind === kind && (customerId === undefined || row.customerId === customerId),
    );
  }

  async function paidCardSubscription(card: string = CARDS.approves) {
    const sub = await createSubscription(world.h, { card });
    await runBillingTick(world.h.ctx, { batchSize: 10 });
    const [charge] = await chargeStatuses(world.h, sub.subscriptionId, ["paid"]);
    return { sub, charge: charge! };
  }

  it("payment_due carries the payment link, and is suppressed once the charge is paid", async () => {
    const { h } = world;
    const first = await subscribeByLink(h);
    const firstCharge = await dueLinkCharge(h, first.subscriptionId);
    await deliverDue();
    const [due] = await messagesOf("payment_due", first.customer.id);
    expect(due).toMatchObject({ status: "kept", chargeId: firstCharge.id });
    expect(due!.subject).toBe("Payment due: QAR 100.00 for Monthly");
    expect(linksIn(due!.textBody ?? "")).toContain(await linkOf(h, firstCharge.id));

    // Paid by its link before the notice's turn came: the notice is dropped, the receipt kept.
    const second = await subscribeByLink(h);
    const secondCharge = await dueLinkCharge(h, second.subscriptionId);
    await payLink(world, await linkOf(h, secondCharge.id));
    await deliverDue();
    const [stale] = await messagesOf("payment_due", second.customer.id);
    expect(stale).toMatchObject({
      status: "suppressed",
      lastResponse: "the charge is paid: nothing is due",
      subject: null,
    });
    expect(await messagesOf("receipt", second.customer.id)).toMatchObject([{ status: "kept" }]);
  });

  it("refund_issued names the credit note and the receipt it reverses, with signed links", async () => {
    const { h } = world;
    const { sub, charge } = await paidCardSubscription();
    await refundCharge(h.ctx, { chargeId: charge.id, actor: "test" });
    await deliverDue();
    const [refund] = await messagesOf("refund_issued", sub.customerId);
    expect(refund).toMatchObject({ status: "kept", chargeId: charge.id });
    expect(refund!.subject).toBe("Refund of QAR 100.00 issued — credit note CN-000001");
    expect(refund!.textBody).toContain("(receipt RCT-000001)");
    const documents = linksIn(refund!.textBody ?? "").filter((url) => url.includes("/documents/"));
    expect(documents).toHaveLength(2);
    expect(documents[0]).toMatch(/\/documents\/credit-note\/[0-9a-f-]{36}\/[\w-]+$/);
    expect(documents[1]).toBe(`${documents[0]}.pdf`);
  });

  it("subscription_canceled and card_expiring say what happened to the subscription and its card", async () => {
    const { h } = world;
    const canceled = await paidCardSubscription();
    await cancelSubscription(h.ctx, {
      subscriptionId: canceled.sub.subscriptionId,
      mode: "immediately",
      actor: "test",
    });
    const expiring = await paidCardSubscription();
    const expiresAt = DateTime.fromISO("2026-01-31T23:59:59.999Z");
    await h.ctx.db
      .update(paymentMethods)
      .set({ expiresAt: expiresAt.toJSDate() })
      .where(eq(paymentMethods.id, expiring.sub.paymentMethodId));
    await notifyExpiringPaymentMethods(h.ctx, {
      newCardLink: () => "https://example.com/unused",
      windowDays: 30,
    });
    await deliverDue();

    const [ended] = await messagesOf("subscription_canceled", canceled.sub.customerId);
    expect(ended).toMatchObject({ status: "kept", subject: "Your Monthly subscription has been canceled" });
    expect(ended!.textBody).toContain("canceled on 15 January 2026");
    const [card] = await messagesOf("card_expiring", expiring.sub.customerId);
    // The month in UTC, where a card's expiry is defined, though it is February in Qatar already.
    expect(card).toMatchObject({
      status: "kept",
      subject: "Your card ending in 1111 expires in January 2026",
    });
    const fresh = linksIn(card!.textBody ?? "").find((url) => url.includes("/new-card"));
    expect(fresh).toContain(`/subscriptions/${expiring.sub.subscriptionId}/new-card?`);
  });

  it("suppresses a payment_failed notice whose charge was paid before its turn", async () => {
    const { h } = world;
    const sub = await createSubscription(h, { card: CARDS.declinedTwiceThenApproved });
    await runBillingTick(h.ctx, { batchSize: 10 });
    let charge = await onlyCharge(h, sub.subscriptionId, { status: "retrying", attemptCount: 1 });
    for (const attempt of [2, 3]) {
      h.clock.set(DateTime.fromJSDate(charge.nextAttemptAt!));
      await runBillingTick(h.ctx, { batchSize: 10 });
      charge = await onlyCharge(h, sub.subscriptionId, {
        status: attempt === 3 ? "paid" : "retrying",
        attemptCount: attempt,
      });
    }
    await deliverDue();
    expect(await messagesOf("payment_failed", sub.customerId)).toMatchObject([
      { status: "suppressed", lastResponse: "the charge was paid since", attempts: 1 },
    ]);
    expect(await messagesOf("receipt", sub.customerId)).toMatchObject([{ status: "kept" }]);
    const [row] = await h.ctx.db.select().from(charges).where(eq(charges.id, charge.id));
    expect(row!.status).toBe("paid");
  });
});
