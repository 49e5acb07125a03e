import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReEnrollment } from "../../../src/enrollment/index.js";
import {
  CARDS,
  type EnrollmentWorld,
  enrollmentOf,
  enrollNew,
  eventsOf,
  follow,
  ledgerOf,
  pay,
  paymentMethodsOf,
  startEnrollmentWorld,
  subscriptionOf,
  typesOf,
} from "./support.js";

let world: EnrollmentWorld;
const h = () => world.h;

beforeAll(async () => {
  world = await startEnrollmentWorld();
});
afterAll(() => world?.close());

async function activeSubscription() {
  const started = await enrollNew(h());
  await follow((await pay(h(), started.checkoutUrl)).redirect_url);
  return started;
}

describe("re-enrollment", () => {
  it("switches an active subscription to the new card and leaves its schedule alone", async () => {
    const started = await activeSubscription();
    const before = await subscriptionOf(h(), started.subscriptionId);
    h().clock.advance({ days: 3 });

    const again = await startReEnrollment(h().ctx, {
      subscriptionId: started.subscriptionId,
      actor: "test",
      reason: "customer_changes_card",
    });
    const page = await follow(
      (await pay(h(), again.checkoutUrl, { card: CARDS.approvesMastercard })).redirect_url,
    );
    expect(page.text).toContain("Your card is saved");

    const [oldCard, newCard] = await paymentMethodsOf(h(), started.subscriptionId);
    const after = await subscriptionOf(h(), started.subscriptionId);
    expect(after.paymentMethodId).toBe(newCard!.id);
    expect(after).toMatchObject({
      status: "active",
      billingAnchor: before.billingAnchor,
      nextBillingAt: before.nextBillingAt,
    });
    expect(oldCard!.deactivatedAt?.toISOString()).toBe(h().clock.now().toJSDate().toISOString());
    expect(oldCard!.deactivationReason).toContain(again.enrollmentId);
    expect(newCard!.deactivatedAt).toBeNull();
    expect(newCard!.enrollmentId).toBe(again.enrollmentId);
    // The new card is the one the gateway saved for the second checkout.
    const ledger = await ledgerOf(h());
    const payment = ledger.payments.find((p) => p.order_id === again.enrollmentId)!;
    const token = ledger.tokens.find((t) => t.source_transaction_id === payment.transaction_id)!;
    expect(
      h().ctx.vault.decrypt({
        ciphertext: newCard!.tokenCiphertext,
        nonce: newCard!.tokenNonce,
        tag: newCard!.tokenTag,
        keyId: newCard!.tokenKeyId,
      }),
    ).toBe(token.card_token);

    const events = await eventsOf(h(), started.subscriptionId);
    expect(typesOf(events).filter((t) => t === "subscription.activated")).toHaveLength(1);
    const replaced = events.find((e) => e.type === "payment_method.replaced");
    expect(replaced?.data).toEqual({
      enrollment_id: again.enrollmentId,
      payment_method_id: newCard!.id,
      previous_payment_method_id: oldCard!.id,
      subscription_status: "active",
      resume_collection: false,
    });
    const startedEvent = events.filter((e) => e.type === "enrollment.started").at(-1);
    expect(startedEvent?.data).toMatchObject({ reason: "customer_changes_card" });
  });

  it("marks the switch for collection when the subscription is unpaid", async () => {
    const started = await activeSubscription();
    // Dunning ended unpaid (the charging engine's doing; set directly here).
    await h().database.sql`
      update subscriptions set status = 'unpaid', next_billing_at = null where id = ${started.subscriptionId}`;
    const again = await startReEnrollment(h().ctx, { subscriptionId: started.subscriptionId, actor: "test" });
    await follow((await pay(h(), again.checkoutUrl)).redirect_url);

    const after = await subscriptionOf(h(), started.subscriptionId);
    expect(after.status).toBe("unpaid");
    const replaced = (await eventsOf(h(), started.subscriptionId)).find(
      (e) => e.type === "payment_method.replaced",
    );
    expect(replaced?.data).toMatchObject({ subscription_status: "unpaid", resume_collection: true });
    expect(after.paymentMethodId).toBe(replaced?.data.payment_method_id);
  });

  it("replaces a pending enrollment, keeping one pending at a time", async () => {
    const first = await enrollNew(h());
    const [second, third] = await Promise.all([
      startReEnrollment(h().ctx, { subscriptionId: first.subscriptionId, actor: "test" }),
      startReEnrollment(h().ctx, { subscriptionId: first.subscriptionId, actor: "test" }),
    ]);
    const statuses = await h().database.sql<{ id: string; status: string }[]>`
      select id, status from enrollments where subscription_id = ${first.subscriptionId}`;
    expect(statuses.filter((e) => e.status === "pending")).toHaveLength(1);
    expect(statuses.filter((e) => e.status === "expired")).toHaveLength(2);
    expect((await enrollmentOf(h(), first.enrollmentId)).status).toBe("expired");
    const live = statuses.find((e) => e.status === "pending")!.id;
    expect([second.enrollmentId, third.enrollmentId]).toContain(live);

    // A customer who pays a replaced checkout anyway still gets the card saved.
    await follow((await pay(h(), first.checkoutUrl)).redirect_url);
    expect((await enrollmentOf(h(), first.enrollmentId)).status).toBe("completed");
    expect((await subscriptionOf(h(), first.subscriptionId)).status).toBe("active");
    expect(await paymentMethodsOf(h(), first.subscriptionId)).toHaveLength(1);
  });

  it("refuses unknown and canceled subscriptions", async () => {
    await expect(
      startReEnrollment(h().ctx, { subscriptionId: "00000000-0000-4000-8000-000000000000", actor: "test" }),
    ).rejects.toMatchObject({ code: "subscription_not_found" });
    const started = await activeSubscription();
    await h().database.sql`
      update subscriptions set status = 'canceled', canceled_at = now(), next_billing_at = null
      where id = ${started.subscriptionId}`;
    await expect(
      startReEnrollment(h().ctx, { subscriptionId: started.subscriptionId, actor: "test" }),
    ).rejects.toMatchObject({ code: "subscription_canceled" });
  });
});
