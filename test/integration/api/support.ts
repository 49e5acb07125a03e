import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { registerMerchantApi } from "../../../src/api/index.js";
import { createApiKey } from "../../../src/apikeys/index.js";
import { buildServer } from "../../../src/app/index.js";
import { chargeAttempts, charges, subscriptions } from "../../../src/db/schema/index.js";
import { planOfSubscription } from "../../db/fixtures.js";
import { createEngineHarness, type EngineHarness, type HarnessOptions } from "../../support/engine.js";

/**
 * The engine's server with the merchant API mounted, on a fresh engine, and one API key:
 *
 *   let api: ApiHarness;
 *   beforeAll(async () => { api = await createApiHarness(); });
 *   afterAll(() => api?.close());
 */
export interface ApiHarness {
  h: EngineHarness;
  app: FastifyInstance;
  key: string;
  keyId: string;
  /** A request with the harness's key unless `key` says otherwise (null: no Authorization). */
  call(method: Method, url: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface CallOptions {
  body?: unknown;
  key?: string | null;
  headers?: Record<string, string>;
}

export async function createApiHarness(options: HarnessOptions = {}): Promise<ApiHarness> {
  const h = await createEngineHarness(options);
  const app = buildServer(h.ctx);
  // A no-op once buildServer mounts the API itself.
  registerMerchantApi(app, h.ctx);
  await app.ready();
  const { id: keyId, key } = await createApiKey(h.ctx.db, { name: "tests" });
  return {
    h,
    app,
    key,
    keyId,
    call(method, url, { body, key: presented = key, headers = {} } = {}) {
      return app.inject({
        method,
        url,
        headers: {
          ...(presented === null ? {} : { authorization: `Bearer ${presented}` }),
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    },
    async close() {
      await app.close();
      await h.close();
    },
  };
}

export const PLAN_BODY = {
  name: "Gold monthly",
  amount: "100.00",
  currency: "QAR",
  interval: "month",
} as const;

export const PAYING_CARD = {
  card_number: "4111111111111111",
  expiry: "12/30",
  cvv: "123",
  name: "Test Payer",
};

export interface ActiveSubscription {
  subscriptionId: string;
  customerId: string;
  planId: string;
  enrollmentId: string;
}

/**
 * A subscription made through the API and started the way production starts it: the customer
 * pays the hosted checkout, and the gateway's webhook (here injected, carrying only the order id)
 * makes the engine verify the payment with the gateway.
 */
export async function activeSubscription(
  api: ApiHarness,
  email: string,
  cardNumber = PAYING_CARD.card_number,
): Promise<ActiveSubscription> {
  const plan = await api.call("POST", "/v1/plans", { body: PLAN_BODY });
  const customer = await api.call("POST", "/v1/customers", { body: { email } });
  const created = await api.call("POST", "/v1/subscriptions", {
    body: { customer_id: customer.json().id, plan_id: plan.json().id },
  });
  if (created.statusCode !== 201) throw new Error(`enroll answered ${created.statusCode}: ${created.body}`);
  const { id: subscriptionId, enrollment_id: enrollmentId, checkout_url } = created.json();
  await api.h.simAdmin("POST", "/_sim/pay", { checkout_url, ...PAYING_CARD, card_number: cardNumber });
  const webhook = await api.app.inject({ url: `/gateway/webhook?orderId=${enrollmentId}` });
  if (webhook.body !== "ok") throw new Error(`the gateway webhook was answered ${webhook.body}`);
  return { subscriptionId, customerId: customer.json().id, planId: plan.json().id, enrollmentId };
}

/**
 * Opens the subscription's first period as the scheduler does when it bills it (the scheduler is
 * not what these tests are about): a month from the billing clock's now.
 */
export async function openPeriod(
  api: ApiHarness,
  subscriptionId: string,
): Promise<{ start: Date; end: Date }> {
  const now = api.h.clock.now();
  const period = { start: now.toJSDate(), end: now.plus({ months: 1 }).toJSDate() };
  await api.h.ctx.db
    .update(subscriptions)
    .set({ currentPeriodStart: period.start, currentPeriodEnd: period.end, nextBillingAt: period.end })
    .where(eq(subscriptions.id, subscriptionId));
  return period;
}

/**
 * A paid charge of 100.00 QAR for a period `monthsAhead` months from now, paid for real at the
 * gateway: a one-off v1 checkout paid with a card, recorded as the charge's approved attempt with
 * the payment's order and transaction ids (what the charging service records when it collects).
 */
export async function paidCharge(api: ApiHarness, subscriptionId: string, monthsAhead = 0): Promise<string> {
  const { ctx, clock } = api.h;
  const orderId = randomUUID();
  const { checkoutUrl } = await ctx.gateway.v1.checkout({
    amount: { minor: 10000, currency: "QAR" },
    orderId,
    client: { email: "payer@example.qa" },
  });
  await api.h.simAdmin("POST", "/_sim/pay", { checkout_url: checkoutUrl, ...PAYING_CARD });
  const ledger = await api.h.simAdmin<{ payments: { order_id: string; transaction_id: string }[] }>(
    "GET",
    "/_sim/ledger",
  );
  const payment = ledger.payments.find((p) => p.order_id === orderId);
  if (!payment) throw new Error(`the simulator recorded no payment for order ${orderId}`);
  const now = clock.now();
  const start = now.plus({ months: monthsAhead });
  return ctx.db.transaction(async (tx) => {
    const [charge] = await tx
      .insert(charges)
      .values({
        subscriptionId,
        planId: planOfSubscription(subscriptionId),
        periodStart: start.toJSDate(),
        periodEnd: start.plus({ months: 1 }).toJSDate(),
        amountMinor: 10000,
        currency: "QAR",
        status: "paid",
        attemptCount: 1,
        paidAt: now.toJSDate(),
        paidTransactionId: payment.transaction_id,
      })
      .returning({ id: charges.id });
    if (!charge) throw new Error("charge was not inserted");
    await tx.insert(chargeAttempts).values({
      chargeId: charge.id,
      orderId,
      attemptNumber: 1,
      status: "approved",
      gatewayTransactionId: payment.transaction_id,
      settledAt: now.toJSDate(),
    });
    return charge.id;
  });
}
