import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ControllableClock } from "../../src/clock/index.js";
import { events } from "../../src/db/schema/index.js";
import { EVENT_TYPES } from "../../src/events/index.js";
import { silentLogger } from "../../src/logger/index.js";
import {
  createWebhookEndpoint,
  dispatchDueWebhooks,
  findExpiringPaymentMethods,
  notifyExpiringPaymentMethods,
} from "../../src/webhooks/index.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";
import {
  disableAllEndpoints,
  RECEIVER_HOSTS,
  seedSubscriptionWithCard,
  webhookTestContext,
} from "./fixtures.js";
import { WebhookReceiver } from "./receiver.js";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterEach(() => disableAllEndpoints(t.db));
afterAll(() => t?.drop());

const newCardLink = (subscriptionId: string) => `https://pay.example/cards/${subscriptionId}`;

async function noticesFor(paymentMethodId: string) {
  return t.db
    .select()
    .from(events)
    .where(
      and(
        eq(events.type, EVENT_TYPES.paymentMethodExpiring),
        sql`${events.data} ->> 'payment_method_id' = ${paymentMethodId}`,
      ),
    );
}

describe("payment_method.expiring", () => {
  it("finds only working cards of live subscriptions that stop within two weeks", async () => {
    const clock = new ControllableClock("2030-01-01T00:00:00Z");
    const now = clock.now();
    const seed = (card: Omit<Parameters<typeof seedSubscriptionWithCard>[1], "now">) =>
      seedSubscriptionWithCard(t.db, { now, ...card });
    const soon = await seed({ expiresAt: now.plus({ days: 10 }) });
    const atTheEdge = await seed({ expiresAt: now.plus({ days: 14 }), subscriptionStatus: "past_due" });
    const later = await seed({ expiresAt: now.plus({ days: 14, seconds: 1 }) });
    const expired = await seed({ expiresAt: now });
    const deactivated = await seed({
      expiresAt: now.plus({ days: 5 }),
      deactivatedAt: now.minus({ days: 1 }),
    });
    const unusable = await seed({ expiresAt: now.plus({ days: 5 }), unusableAt: now.minus({ hours: 1 }) });
    const canceled = await seed({ expiresAt: now.plus({ days: 5 }), subscriptionStatus: "canceled" });

    const found = await findExpiringPaymentMethods({ db: t.db }, { now, windowDays: 14 });

    const ours = new Set(
      [soon, atTheEdge, later, expired, deactivated, unusable, canceled].map((s) => s.paymentMethod.id),
    );
    expect(found.filter((card) => ours.has(card.paymentMethodId))).toEqual([
      {
        paymentMethodId: soon.paymentMethod.id,
        subscriptionId: soon.subscription.id,
        customerId: soon.customer.id,
        cardLast4: "4242",
        cardExpiryMonth: "12/30",
        expiresAt: now.plus({ days: 10 }),
      },
      expect.objectContaining({ paymentMethodId: atTheEdge.paymentMethod.id }),
    ]);
  });

  it("records the notice once per card, even when run again the next day", async () => {
    const clock = new ControllableClock("2031-01-01T00:00:00Z");
    const card = await seedSubscriptionWithCard(t.db, {
      now: clock.now(),
      expiresAt: clock.now().plus({ days: 13 }),
    });
    const ctx = { db: t.db, clock, logger: silentLogger };

    const first = await notifyExpiringPaymentMethods(ctx, { newCardLink });
    clock.advance({ days: 1 });
    const second = await notifyExpiringPaymentMethods(ctx, { newCardLink });

    expect(first.filter((n) => n.paymentMethodId === card.paymentMethod.id)).toHaveLength(1);
    expect(second.filter((n) => n.paymentMethodId === card.paymentMethod.id)).toEqual([]);
    const notices = await noticesFor(card.paymentMethod.id);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      subscriptionId: card.subscription.id,
      customerId: card.customer.id,
      actor: "scheduler",
      data: {
        payment_method_id: card.paymentMethod.id,
        card_last4: "4242",
        card_expiry_month: "12/30",
        expires_at: card.paymentMethod.expiresAt.toISOString(),
        new_card_link: newCardLink(card.subscription.id),
      },
    });
  });

  it("records it once when two runs start together", async () => {
    const clock = new ControllableClock("2032-01-01T00:00:00Z");
    const card = await seedSubscriptionWithCard(t.db, {
      now: clock.now(),
      expiresAt: clock.now().plus({ days: 3 }),
    });
    const ctx = { db: t.db, clock, logger: silentLogger };

    const runs = await Promise.all([
      notifyExpiringPaymentMethods(ctx, { newCardLink }),
      notifyExpiringPaymentMethods(ctx, { newCardLink }),
    ]);

    expect(runs.flat().filter((n) => n.paymentMethodId === card.paymentMethod.id)).toHaveLength(1);
    expect(await noticesFor(card.paymentMethod.id)).toHaveLength(1);
  });

  it("reaches the merchant as a webhook carrying the new-card link", async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const clock = new ControllableClock();
      const endpoint = await createWebhookEndpoint(webhookTestContext(t.db, RECEIVER_HOSTS), {
        url: receiver.url,
      });
      receiver.secret = endpoint.secret;
      const card = await seedSubscriptionWithCard(t.db, {
        now: clock.now(),
        expiresAt: clock.now().plus({ days: 7 }),
      });
      const ctx = { ...webhookTestContext(t.db, RECEIVER_HOSTS), clock, logger: silentLogger };

      await notifyExpiringPaymentMethods(ctx, { newCardLink });
      await dispatchDueWebhooks(ctx, { limit: 100 });

      const received = receiver.received.find((r) => r.body.data.payment_method_id === card.paymentMethod.id);
      expect(received?.verification.ok).toBe(true);
      expect(received?.body).toMatchObject({
        type: "payment_method.expiring",
        data: { subscription_id: card.subscription.id, new_card_link: newCardLink(card.subscription.id) },
      });
    } finally {
      await receiver.close();
    }
  });
});
