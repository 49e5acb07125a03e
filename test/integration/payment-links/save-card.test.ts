import { describe, expect, it } from "vitest";
import { processChargeBatch } from "../../../src/charging/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { follow, ledgerOf, paymentMethodsOf, subscriptionOf } from "../enrollment/support.js";
import {
  attemptsOf,
  CARDS,
  chargeRow,
  dueLinkCharge,
  eachWorld,
  linkOf,
  openLink,
  payLink,
  subscribeByLink,
} from "./support.js";

/**
 * "Save this card for automatic payments" on a payment link: the checkout asks the gateway to save
 * the card (v1 save_token); the gateway's word decides whether the subscription then pays by card.
 */
describe("saving the card while paying by link", () => {
  const world = eachWorld();

  it("a saved card pays the next period automatically", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h);
    const first = await dueLinkCharge(h, sub.subscriptionId);
    const link = await linkOf(h, first.id);

    // A checkout opened without saving is not reused when the customer asks to save the card.
    const plain = await openLink(link);
    const { page } = await payLink(w, `${link}?save_card=1`);
    expect(page.text).toContain("Paid, thank you");
    const attempts = await attemptsOf(h, first.id);
    expect(attempts.map((a) => [a.status, a.saveCard])).toEqual([
      ["failed_permanently", false],
      ["approved", true],
    ]);
    expect((await chargeRow(h, first.id)).status).toBe("paid");

    const saved = await subscriptionOf(h, sub.subscriptionId);
    expect(saved.collectionMethod).toBe("charge_automatically");
    const [card] = await paymentMethodsOf(h, sub.subscriptionId);
    expect(card).toMatchObject({ id: saved.paymentMethodId, kind: "autosave", cardLast4: null });
    const { tokens } = await ledgerOf(h);
    expect(tokens.filter((t) => t.source_transaction_id === attempts[1]!.gatewayTransactionId)).toHaveLength(
      1,
    );
    // The abandoned plain checkout's page is still open somewhere: it stays watched, nothing more.
    expect(plain).not.toBe(attempts[1]!.checkoutUrl);

    h.clock.set(saved.nextBillingAt!);
    await runBillingTick(h.ctx, { batchSize: 10 });
    const [, second] = await h.ctx.db.$client<{ id: string }[]>`
      select id from charges where subscription_id = ${sub.subscriptionId}::uuid order by period_start`;
    await processChargeBatch(h.ctx, [second!.id]);
    const paid = await chargeRow(h, second!.id);
    expect(paid.status).toBe("paid");
    const collections = (await ledgerOf(h)).payments.filter((p) =>
      p.order_id?.startsWith(`chg_${second!.id}_`),
    );
    expect(collections.map((p) => [p.operation, p.status, p.amount])).toEqual([
      ["GetnewPayment", "SUCCESS", "100.00"],
    ]);
  });

  it("a card the gateway will not save leaves the subscription on links", async () => {
    const { w } = world;
    const { h } = w;
    const sub = await subscribeByLink(h);
    const charge = await dueLinkCharge(h, sub.subscriptionId);
    const link = await linkOf(h, charge.id);

    const refused = await payLink(w, `${link}?save_card=1`, { card: CARDS.qatarDebit });
    expect(refused.paid.status).toBe("FAILURE");
    expect(refused.page.text).toContain("The payment did not go through");
    expect(refused.page.text).toContain(`${link}?save_card=1`);

    const { page } = await payLink(w, link, { card: CARDS.qatarDebit });
    expect(page.text).toContain("Paid, thank you");
    expect((await chargeRow(h, charge.id)).status).toBe("paid");
    expect(await subscriptionOf(h, sub.subscriptionId)).toMatchObject({
      collectionMethod: "send_payment_link",
      paymentMethodId: null,
    });
    expect(await paymentMethodsOf(h, sub.subscriptionId)).toHaveLength(0);
    expect((await follow(link)).text).toContain("Paid, thank you");
  });
});
