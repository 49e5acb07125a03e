import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { cancelSubscription } from "../../../src/cancellation/index.js";
import { tickAndCheck } from "../../support/tick.js";
import { eventsOf, follow, pay, subscriptionOf } from "../enrollment/support.js";
import {
  attemptsOf,
  CARDS,
  chargeRow,
  dueLinkCharge,
  eachWorld,
  ledgerFor,
  linkOf,
  linkRow,
  openLink,
  payLink,
  subscribeByLink,
} from "./support.js";

/**
 * Collection by payment link end to end: our HTTP server, the simulator's hosted checkout over
 * HTTP, CheckStatus, and the billing tick on the shared controllable clock.
 */
describe("collection by payment link", () => {
  const world = eachWorld();

  it("collects a month by link and bills the next period by link again", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h);
    expect(sub).toMatchObject({ collectionMethod: "send_payment_link", checkoutUrl: null });
    expect(await subscriptionOf(h, sub.subscriptionId)).toMatchObject({
      status: "active",
      collectionMethod: "send_payment_link",
      paymentMethodId: null,
    });

    const first = await dueLinkCharge(h, sub.subscriptionId);
    const link = await linkOf(h, first.id);
    expect(link).toMatch(new RegExp(`^${w.server.url}/pay/${first.id}/[A-Za-z0-9_-]{43}$`));
    const { page } = await payLink(w, link);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Paid, thank you");
    expect(page.text).toContain("100.00 QAR");

    const paid = await chargeRow(h, first.id);
    expect(paid).toMatchObject({ status: "paid", amountMinor: 10_000 });
    const money = await ledgerFor(h, first.id);
    expect(money.paid).toHaveLength(1);
    expect(money.paid[0]).toMatchObject({ amount: "100.00", currency: "QAR", operation: "checkout" });
    expect(paid.paidTransactionId).toBe(money.paid[0]!.transaction_id);
    expect((await linkRow(h, first.id))?.nextReminderAt).toBeNull();

    // Opening the link of a paid charge takes nothing and says so.
    const again = await follow(link);
    expect(again.status).toBe(200);
    expect(again.text).toContain("Paid, thank you");

    h.clock.set((await subscriptionOf(h, sub.subscriptionId)).nextBillingAt!);
    const second = await dueLinkCharge(h, sub.subscriptionId);
    expect(second.id).not.toBe(first.id);
    expect(second.periodStart).toEqual(first.periodEnd);
    await payLink(w, await linkOf(h, second.id));
    expect((await chargeRow(h, second.id)).status).toBe("paid");
    expect((await ledgerFor(h, second.id)).paid).toHaveLength(1);
    expect((await subscriptionOf(h, sub.subscriptionId)).status).toBe("active");
    const types = (await eventsOf(h, sub.subscriptionId)).map((e) => e.type);
    expect(types.filter((t) => t === "charge.payment_link_created")).toHaveLength(2);
    expect(types.filter((t) => t === "charge.succeeded")).toHaveLength(2);
  });

  it("a decline on the checkout page, then a reminder, then a payment", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h);
    const charge = await dueLinkCharge(h, sub.subscriptionId);
    const link = await linkOf(h, charge.id);

    const declined = await payLink(w, link, { cvv: "999" });
    expect(declined.paid.status).toBe("FAILURE");
    expect(declined.page.text).toContain("The payment did not go through");
    expect((await chargeRow(h, charge.id)).status).toBe("awaiting_payment");
    expect((await attemptsOf(h, charge.id)).map((a) => a.status)).toEqual(["declined"]);

    h.clock.advance("P1D");
    expect(await tickAndCheck(h.ctx, { batchSize: 10 })).toMatchObject({ linkReminders: 1 });
    expect((await subscriptionOf(h, sub.subscriptionId)).status).toBe("past_due");
    expect(await linkRow(h, charge.id)).toMatchObject({ remindersSent: 1 });
    const reminder = (await eventsOf(h, sub.subscriptionId)).find(
      (e) => e.type === "charge.payment_link_reminder",
    );
    expect(reminder?.data).toMatchObject({ payment_link: link, reminder: 1 });

    await payLink(w, link);
    expect((await chargeRow(h, charge.id)).status).toBe("paid");
    expect((await subscriptionOf(h, sub.subscriptionId)).status).toBe("active");
    const money = await ledgerFor(h, charge.id);
    expect([money.paid.length, money.failed.length]).toEqual([1, 1]);
    expect((await attemptsOf(h, charge.id)).map((a) => a.status)).toEqual(["declined", "approved"]);
  });

  it("a second payment of the same charge through an old checkout is refunded", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h);
    const charge = await dueLinkCharge(h, sub.subscriptionId);
    const link = await linkOf(h, charge.id);

    const oldCheckout = await openLink(link);
    // A second tab within the checkout's lifetime gets the same checkout.
    expect(await openLink(link)).toBe(oldCheckout);
    h.clock.advance({ minutes: 31 });
    const newCheckout = await openLink(link);
    expect(newCheckout).not.toBe(oldCheckout);

    await follow((await pay(h, newCheckout)).redirect_url);
    expect((await chargeRow(h, charge.id)).status).toBe("paid");
    const late = await follow((await pay(h, oldCheckout)).redirect_url);
    expect(late.text).toContain("Paid, thank you");

    const attempts = await attemptsOf(h, charge.id);
    expect(attempts.map((a) => a.status)).toEqual(["approved", "approved"]);
    expect(attempts[0]!.duplicateAt).not.toBeNull();
    await tickAndCheck(h.ctx, { batchSize: 10 });
    const money = await ledgerFor(h, charge.id);
    expect(money.paid).toHaveLength(2);
    expect(money.refunds).toHaveLength(1);
    expect(money.refunds[0]!.transaction_id).toBe(attempts[0]!.gatewayTransactionId);
    // Kept: the payment that paid the charge; the ledger less refunds equals the database.
    expect((await chargeRow(h, charge.id)).paidTransactionId).toBe(attempts[1]!.gatewayTransactionId);
  });

  it("forged and replayed success returns change nothing", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h);
    const charge = await dueLinkCharge(h, sub.subscriptionId);
    const link = await linkOf(h, charge.id);
    const checkout = await openLink(link);
    const [attempt] = await attemptsOf(h, charge.id);

    const forged = await follow(
      `${link}/return?order_id=${attempt!.orderId}&transaction_id=123456789012&response_code=000&description=Approved`,
    );
    expect(forged.text).toContain("We have not received this payment yet");
    expect((await chargeRow(h, charge.id)).status).toBe("awaiting_payment");
    const wrongSignature = await follow(`${link.slice(0, -4)}AAAA/return?order_id=${attempt!.orderId}`);
    expect(wrongSignature.status).toBe(404);

    const paid = await pay(h, checkout);
    for (let replay = 0; replay < 3; replay += 1) {
      const page = await follow(paid.redirect_url);
      expect(page.text).toContain("Paid, thank you");
    }
    const types = (await eventsOf(h, sub.subscriptionId)).map((e) => e.type);
    expect(types.filter((t) => t === "charge.succeeded")).toHaveLength(1);
    expect((await ledgerFor(h, charge.id)).paid).toHaveLength(1);
  });

  it("a link whose reminders ran out shows closed and takes no money", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h);
    const charge = await dueLinkCharge(h, sub.subscriptionId);
    const link = await linkOf(h, charge.id);
    const sentAt = DateTime.fromJSDate((await linkRow(h, charge.id))!.sentAt);
    for (const day of [1, 3, 5, 7, 9]) {
      h.clock.set(sentAt.plus({ days: day }));
      await tickAndCheck(h.ctx, { batchSize: 10 });
    }
    expect((await chargeRow(h, charge.id)).status).toBe("uncollectible");
    expect((await linkRow(h, charge.id))?.remindersSent).toBe(4);
    expect((await subscriptionOf(h, sub.subscriptionId)).status).toBe("unpaid");
    const closed = await follow(link);
    expect(closed.status).toBe(200);
    expect(closed.text).toContain("This payment link is closed");
    expect((await ledgerFor(h, charge.id)).paid).toHaveLength(0);
  });

  it("canceling the subscription closes its link", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h);
    const charge = await dueLinkCharge(h, sub.subscriptionId);
    const link = await linkOf(h, charge.id);
    await cancelSubscription(h.ctx, {
      subscriptionId: sub.subscriptionId,
      mode: "immediately",
      actor: "test",
    });
    expect((await chargeRow(h, charge.id)).status).toBe("canceled");
    const closed = await follow(link);
    expect(closed.text).toContain("This payment link is closed");
    expect((await ledgerFor(h, charge.id)).paid).toHaveLength(0);
  });

  it("a cardless trial converts to paid by link", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h, { plan: { trial_days: 14, trial_without_card: true } });
    expect(sub.checkoutUrl).toBeNull();
    const started = await subscriptionOf(h, sub.subscriptionId);
    expect(started).toMatchObject({ status: "trialing", collectionMethod: "send_payment_link" });
    h.clock.set(started.trialEnd!);
    const charge = await dueLinkCharge(h, sub.subscriptionId);
    await payLink(w, await linkOf(h, charge.id), { card: CARDS.qatarDebit });
    expect((await chargeRow(h, charge.id)).status).toBe("paid");
    expect((await subscriptionOf(h, sub.subscriptionId)).status).toBe("active");
  });
});
