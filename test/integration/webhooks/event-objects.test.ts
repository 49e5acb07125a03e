import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTick } from "../../../src/app/index.js";
import { cancelSubscription } from "../../../src/cancellation/index.js";
import { startChargeWorker } from "../../../src/charging/index.js";
import { webhooks } from "../../../src/runtime/roles.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import {
  chargeEventSchema,
  createWebhookEndpoint,
  subscriptionEventSchema,
  verifyWebhookSignature,
} from "../../../src/webhooks/index.js";
import { createEngineHarness, type EngineHarness } from "../../support/engine.js";
import { RECEIVER_HOSTS } from "../../webhooks/fixtures.js";
import { type ReceivedWebhook, WebhookReceiver } from "../../webhooks/receiver.js";
import {
  type CardSubscription,
  chargeStatuses,
  createSubscription,
  eventually,
} from "../charging/fixtures.js";

/**
 * A charge paid and a subscription canceled for real (simulator card, charge worker, scheduler
 * tick, the webhooks worker on BullMQ), and what the merchant's endpoint receives: the event with
 * the charge or the subscription as data.object, signed.
 */
describe("webhook events carry their object", () => {
  let h: EngineHarness;
  let receiver: WebhookReceiver;
  let secret: string;

  beforeAll(async () => {
    h = await createEngineHarness({ start: "2026-01-15T09:00:00Z" });
    startChargeWorker(h.ctx, { concurrency: 2, ratePerSecond: 100 });
    receiver = await WebhookReceiver.start();
    // The receiver is on 127.0.0.1, which webhooks are only sent to when allow-listed.
    h.ctx.config = { ...h.ctx.config, WEBHOOK_ALLOWED_HOSTS: RECEIVER_HOSTS };
    const endpoint = await createWebhookEndpoint(h.ctx, { url: receiver.url });
    secret = endpoint.secret;
    receiver.secret = secret;
    await webhooks(h.ctx);
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  /** Ticks (which dispatches what is due) until the endpoint has received an event of this type. */
  function received(type: string, subscriptionId: string): Promise<ReceivedWebhook> {
    return eventually(async () => {
      await runTick(h.ctx);
      const found = receiver.received.find(
        (r) => r.body.type === type && r.body.data.subscription_id === subscriptionId,
      );
      expect(found, `${type} not received yet`).toBeDefined();
      return found!;
    });
  }

  async function paidSubscription(options: Parameters<typeof createSubscription>[1]) {
    const sub = await createSubscription(h, options);
    await runBillingTick(h.ctx, { batchSize: 10 });
    const [charge] = await chargeStatuses(h, sub.subscriptionId, ["paid"]);
    return { sub, charge: charge! };
  }

  it("charge.succeeded carries the charge: amount, currency, period, plan and subscription", async () => {
    const { sub, charge } = await paidSubscription({ amountMinor: 25_000 });

    const request = await received("charge.succeeded", sub.subscriptionId);

    expect(request.verification).toEqual({ ok: true, timestamp: expect.any(Number) });
    expect(request.headers["billing-event-type"]).toBe("charge.succeeded");
    const { body } = request;
    expect(body.data.charge_id).toBe(charge.id);
    expect(body.data.object).toMatchObject({
      object: "charge",
      id: charge.id,
      status: "paid",
      kind: "period",
      amount: { amount: "250.00", amount_minor: 25_000, currency: "QAR" },
      discount: { amount: "0.00", amount_minor: 0, currency: "QAR" },
      credit: { amount: "0.00", amount_minor: 0, currency: "QAR" },
      period_start: "2026-01-15T09:00:00.000Z",
      period_end: "2026-02-15T09:00:00.000Z",
      plan_id: sub.planId,
      plan_name: "Monthly",
      subscription_id: sub.subscriptionId,
      customer_id: sub.customerId,
      quantity: 1,
      paid_at: "2026-01-15T09:00:00.000Z",
      paid_transaction_id: charge.paidTransactionId,
      refund_status: null,
      payment_link: null,
      attempts: [expect.objectContaining({ attempt: 1, status: "approved" })],
    });
    // The plan alone at quantity 1: its amount, plan and quantity say it all.
    expect(body.data.object).not.toHaveProperty("lines");
    expect(chargeEventSchema.safeParse(body).success).toBe(true);
  });

  it("a charge of several units carries its lines", async () => {
    // An autosave card is charged any amount; a recurring token only the amount it was saved for.
    const { sub } = await paidSubscription({
      amountMinor: 10_000,
      kind: "autosave",
      quantity: 3,
      price: { priceModel: "per_unit" },
    });

    const { body } = await received("charge.succeeded", sub.subscriptionId);

    expect(body.data.object).toMatchObject({
      amount: { amount: "300.00", amount_minor: 30_000, currency: "QAR" },
      quantity: 3,
      lines: [
        {
          kind: "plan",
          description: "Monthly",
          quantity: 3,
          amount: { amount: "300.00", amount_minor: 30_000, currency: "QAR" },
          ref_id: null,
        },
      ],
    });
    expect(chargeEventSchema.safeParse(body).success).toBe(true);
  });

  it("subscription.canceled carries the subscription", async () => {
    const { sub } = await paidSubscription({ amountMinor: 10_000 });
    await cancelSubscription(h.ctx, {
      subscriptionId: sub.subscriptionId,
      mode: "immediately",
      actor: "test",
    });

    const request = await received("subscription.canceled", sub.subscriptionId);

    expect(request.verification.ok).toBe(true);
    expect(request.body.data).toMatchObject({ mode: "immediately", previous_status: "active" });
    expect(request.body.data.object).toMatchObject(expectedCanceled(sub));
    expect(subscriptionEventSchema.safeParse(request.body).success).toBe(true);
  });

  it("is signed over the body exactly as sent, object included", () => {
    const withObjects = receiver.received.filter((r) => /^(charge|subscription)\./.test(r.body.type));
    expect(withObjects.length).toBeGreaterThanOrEqual(3);
    for (const { headers, rawBody } of withObjects) {
      expect(rawBody).toContain('"object":');
      const header = headers["billing-signature"];
      expect(verifyWebhookSignature({ secret, header, rawBody }).ok).toBe(true);
      const tampered = rawBody.replace('"object":', '"object" :');
      expect(verifyWebhookSignature({ secret, header, rawBody: tampered })).toEqual({
        ok: false,
        reason: "bad_signature",
      });
    }
  });
});

function expectedCanceled(sub: CardSubscription) {
  return {
    object: "subscription",
    id: sub.subscriptionId,
    customer_id: sub.customerId,
    plan_id: sub.planId,
    plan_name: "Monthly",
    quantity: 1,
    status: "canceled",
    collection_method: "charge_automatically",
    current_period_start: "2026-01-15T09:00:00.000Z",
    current_period_end: "2026-02-15T09:00:00.000Z",
    cancel_at_period_end: false,
    canceled_at: "2026-01-15T09:00:00.000Z",
    discount: null,
    scheduled_plan_change: null,
  };
}
