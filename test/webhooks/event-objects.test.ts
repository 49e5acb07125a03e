import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ControllableClock } from "../../src/clock/index.js";
import { subscriptions } from "../../src/db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../../src/events/index.js";
import { silentLogger } from "../../src/logger/index.js";
import {
  createWebhookEndpoint,
  dispatchDueWebhooks,
  listDeliveries,
  type WebhookContext,
} from "../../src/webhooks/index.js";
import { seedCharge, seedSubscription } from "../db/fixtures.js";
import { createTestDatabase, type TestDatabase } from "../support/db.js";
import { disableAllEndpoints, RECEIVER_HOSTS, webhookTestContext } from "./fixtures.js";
import { WebhookReceiver } from "./receiver.js";

/**
 * When a webhook's data.object is read (the dispatcher, as the delivery first goes out) and that
 * it then stays: the object is as of delivery, the same in every retry, and the event's own facts
 * are as of the event.
 */

let t: TestDatabase;
let receiver: WebhookReceiver;
let clock: ControllableClock;

beforeAll(async () => {
  t = await createTestDatabase();
});
beforeEach(async () => {
  receiver = await WebhookReceiver.start();
  clock = new ControllableClock();
});
afterEach(async () => {
  await receiver.close();
  await disableAllEndpoints(t.db);
});
afterAll(() => t?.drop());

const context = (): WebhookContext => ({
  ...webhookTestContext(t.db, RECEIVER_HOSTS),
  clock,
  logger: silentLogger,
  timeoutMs: 2_000,
  retry: { jitter: 0 },
});

async function endpoint() {
  const created = await createWebhookEndpoint(context(), { url: receiver.url });
  receiver.secret = created.secret;
}

const record = (input: Omit<Parameters<typeof recordEvent>[1], "actor" | "occurredAt">) =>
  recordEvent(t.db, { actor: "test", occurredAt: clock.now(), ...input });

describe("data.object", () => {
  it("is the subscription as the delivery first goes out, then the same in every retry", async () => {
    await endpoint();
    const { subscription } = await seedSubscription(t.db);
    await record({
      type: EVENT_TYPES.subscriptionCreditGranted,
      subscriptionId: subscription.id,
      data: { quantity_then: subscription.quantity },
    });
    // Changed after the event, before its delivery: the object shows it, the event's facts do not.
    await t.db.update(subscriptions).set({ quantity: 4 }).where(eq(subscriptions.id, subscription.id));
    receiver.respond = (n) => (n === 1 ? 500 : 200);

    await dispatchDueWebhooks(context(), { limit: 10 });
    await t.db.update(subscriptions).set({ quantity: 7 }).where(eq(subscriptions.id, subscription.id));
    clock.advance({ hours: 1 });
    await dispatchDueWebhooks(context(), { limit: 10 });

    const [first, retry] = await receiver.waitForCount(2);
    expect(first!.body.data).toMatchObject({
      quantity_then: 1,
      subscription_id: subscription.id,
      object: { object: "subscription", id: subscription.id, quantity: 4, plan_name: "Monthly" },
    });
    expect(retry!.rawBody).toBe(first!.rawBody);
    expect(retry!.verification.ok).toBe(true);
  });

  it("pairs each delivery of a batch with its own object, for every endpoint", async () => {
    await endpoint();
    await createWebhookEndpoint(context(), { url: `${receiver.url}/second`, secret: receiver.secret });
    const a = await seedSubscription(t.db);
    const b = await seedSubscription(t.db);
    const charge = await seedCharge(t.db, b.subscription.id);
    await record({ type: EVENT_TYPES.chargeFailed, subscriptionId: b.subscription.id, chargeId: charge.id });
    await record({ type: EVENT_TYPES.subscriptionPastDue, subscriptionId: a.subscription.id });

    const { deliveryIds } = await dispatchDueWebhooks(context(), { limit: 10 });

    expect(deliveryIds).toHaveLength(4);
    const objects = (await receiver.waitForCount(4)).map((r) => [r.body.type, r.body.data.object]);
    const chargeObject = {
      object: "charge",
      id: charge.id,
      subscription_id: b.subscription.id,
      customer_id: b.customer.id,
      amount: { amount: "100.00", amount_minor: 10_000, currency: "QAR" },
    };
    const subscriptionObject = { object: "subscription", id: a.subscription.id, customer_id: a.customer.id };
    expect(objects).toEqual(
      expect.arrayContaining([
        ["charge.failed", expect.objectContaining(chargeObject)],
        ["subscription.past_due", expect.objectContaining(subscriptionObject)],
      ]),
    );
    expect(objects.filter(([type]) => type === "charge.failed")).toHaveLength(2);
  });

  it("is absent from other events, and from an event naming no charge, which still goes out", async () => {
    await endpoint();
    const { subscription } = await seedSubscription(t.db);
    const charge = await seedCharge(t.db, subscription.id);
    const invoice = await record({ type: EVENT_TYPES.invoiceCreated, chargeId: charge.id });
    const bare = await record({ type: EVENT_TYPES.chargeSucceeded, data: { attempt: 1 } });

    await dispatchDueWebhooks(context(), { limit: 10 });

    const bodies = (await receiver.waitForCount(2)).map((r) => r.body);
    expect(bodies.find((b) => b.id === `evt_${invoice.id}`)?.data).toEqual({ charge_id: charge.id });
    expect(bodies.find((b) => b.id === `evt_${bare.id}`)?.data).toEqual({ attempt: 1 });
    for (const event of [invoice, bare]) {
      const [delivery] = await listDeliveries(t.db, { eventId: event.id });
      expect(delivery?.status).toBe("delivered");
    }
  });
});
