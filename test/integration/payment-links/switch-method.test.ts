import { describe, expect, it } from "vitest";
import { createAddon, setSubscriptionAddon } from "../../../src/addons/index.js";
import { processChargeBatch } from "../../../src/charging/index.js";
import { startReEnrollment } from "../../../src/enrollment/index.js";
import { type CollectionMethodRefusal, setCollectionMethod } from "../../../src/payment-links/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { tickAndCheck } from "../../support/tick.js";
import { follow, pay, subscriptionOf } from "../enrollment/support.js";
import {
  attemptsOf,
  chargeRow,
  dueLinkCharge,
  eachWorld,
  ledgerFor,
  linkOf,
  linkRow,
  openLink,
  subscribeByLink,
} from "./support.js";

/** Switching a subscription between card and link, and a card saved while a link is open. */
describe("switching collection methods", () => {
  const world = eachWorld();

  it("refuses the card without a usable one, and saving a card switches by itself", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h, { plan: { billing_mode: "autosave" } });
    const charge = await dueLinkCharge(h, sub.subscriptionId);
    const link = await linkOf(h, charge.id);
    const openCheckout = await openLink(link);

    await expect(
      setCollectionMethod(h.ctx, {
        subscriptionId: sub.subscriptionId,
        method: "charge_automatically",
        actor: "test",
      }),
    ).rejects.toMatchObject({ code: "no_usable_card" } satisfies Partial<CollectionMethodRefusal>);
    expect((await subscriptionOf(h, sub.subscriptionId)).collectionMethod).toBe("send_payment_link");

    // The customer saves a card (new-card link): the subscription now pays by card, and the charge
    // that waited for its link is charged to it.
    const { checkoutUrl } = await startReEnrollment(h.ctx, {
      subscriptionId: sub.subscriptionId,
      actor: "test",
    });
    await follow((await pay(h, checkoutUrl!)).redirect_url);
    expect((await subscriptionOf(h, sub.subscriptionId)).collectionMethod).toBe("charge_automatically");
    expect((await chargeRow(h, charge.id)).status).toBe("scheduled");
    expect((await linkRow(h, charge.id))?.nextReminderAt).toBeNull();
    await processChargeBatch(h.ctx, [charge.id]);
    const paid = await chargeRow(h, charge.id);
    expect(paid.status).toBe("paid");

    // The old checkout was superseded and is watched: paying it later is a duplicate, refunded.
    const late = await follow((await pay(h, openCheckout)).redirect_url);
    expect(late.text).toContain("Paid, thank you");
    await tickAndCheck(h.ctx, { batchSize: 10 });
    const attempts = await attemptsOf(h, charge.id);
    expect(attempts.map((a) => [a.channel, a.status])).toEqual([
      ["checkout", "approved"],
      ["card_token", "approved"],
    ]);
    expect(attempts[0]!.duplicateAt).not.toBeNull();
    const money = await ledgerFor(h, charge.id);
    expect(money.paid).toHaveLength(2);
    expect(money.refunds.map((r) => r.transaction_id)).toEqual([attempts[0]!.gatewayTransactionId]);
    expect(paid.paidTransactionId).toBe(attempts[1]!.gatewayTransactionId);
    // The link now says the charge is paid and takes nothing.
    expect((await follow(link)).text).toContain("Paid, thank you");
  });

  it("moves a card subscription's waiting charge to a link and back", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h, { plan: { billing_mode: "autosave" } });
    const { checkoutUrl } = await startReEnrollment(h.ctx, {
      subscriptionId: sub.subscriptionId,
      actor: "test",
    });
    await follow((await pay(h, checkoutUrl!)).redirect_url);
    expect((await subscriptionOf(h, sub.subscriptionId)).collectionMethod).toBe("charge_automatically");
    await runBillingTick(h.ctx, { batchSize: 10 });
    const [charge] = await h.ctx.db.$client<{ id: string }[]>`
      select id from charges where subscription_id = ${sub.subscriptionId}::uuid`;

    const toLink = await setCollectionMethod(h.ctx, {
      subscriptionId: sub.subscriptionId,
      method: "send_payment_link",
      actor: "test",
    });
    expect(toLink).toMatchObject({ changed: true, chargeIds: [charge!.id] });
    expect((await chargeRow(h, charge!.id)).status).toBe("awaiting_payment");
    expect(await linkOf(h, charge!.id)).toContain(`/pay/${charge!.id}/`);
    // The same method again changes nothing.
    expect(
      await setCollectionMethod(h.ctx, {
        subscriptionId: sub.subscriptionId,
        method: "send_payment_link",
        actor: "test",
      }),
    ).toMatchObject({ changed: false });

    const toCard = await setCollectionMethod(h.ctx, {
      subscriptionId: sub.subscriptionId,
      method: "charge_automatically",
      actor: "test",
    });
    expect(toCard).toMatchObject({ changed: true, chargeIds: [charge!.id] });
    await processChargeBatch(h.ctx, [charge!.id]);
    expect((await chargeRow(h, charge!.id)).status).toBe("paid");
    expect((await ledgerFor(h, charge!.id)).paid).toHaveLength(1);
  });

  it("refuses a recurring card once the next charge is not the amount it pays", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h, { plan: { billing_mode: "recurring" } });
    const { checkoutUrl } = await startReEnrollment(h.ctx, {
      subscriptionId: sub.subscriptionId,
      actor: "test",
    });
    await follow((await pay(h, checkoutUrl!)).redirect_url);
    const toLink = {
      subscriptionId: sub.subscriptionId,
      method: "send_payment_link" as const,
      actor: "test",
    };
    await setCollectionMethod(h.ctx, toLink);
    // Paying by link, nothing fixes the amount: an add-on may be attached.
    await createAddon(h.ctx, { code: "support", name: "Support", currency: "QAR", amount: "25.00" });
    await setSubscriptionAddon(h.ctx, {
      subscriptionId: sub.subscriptionId,
      addon: "support",
      quantity: 1,
      actor: "test",
    });

    const toCard = {
      subscriptionId: sub.subscriptionId,
      method: "charge_automatically" as const,
      actor: "test",
    };
    const refusal = await setCollectionMethod(h.ctx, toCard).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: "no_usable_card" } satisfies Partial<CollectionMethodRefusal>);
    // 100.00 saved with the card; the next period is 100.00 plus the 25.00 add-on.
    expect((refusal as Error).message).toContain(
      "its recurring card pays only 10000 minor units and its next charge is 12500",
    );
    expect((await subscriptionOf(h, sub.subscriptionId)).collectionMethod).toBe("send_payment_link");
  });
});
