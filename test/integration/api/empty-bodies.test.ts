import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiHarness,
  createApiHarness,
  openPeriod,
  PAYING_CARD,
  PLAN_BODY,
  paidCharge,
} from "./support.js";

/**
 * Many clients send `content-type: application/json` on every request, bodiless ones included. An
 * action whose body is optional takes such a request as it takes one without a body; a route
 * whose body is required refuses it, naming the body.
 */

let api: ApiHarness;
let subscriptionId: string;
let planId: string;
beforeAll(async () => {
  api = await createApiHarness();
  // Autosave: the only billing mode a discount can be redeemed on.
  planId = (await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, billing_mode: "autosave" } })).json()
    .id;
  const customer = await api.call("POST", "/v1/customers", { body: { email: "empty-bodies@example.qa" } });
  const created = await api.call("POST", "/v1/subscriptions", {
    body: { customer_id: customer.json().id, plan_id: planId },
  });
  subscriptionId = created.json().id;
  await api.h.simAdmin("POST", "/_sim/pay", { checkout_url: created.json().checkout_url, ...PAYING_CARD });
  await api.app.inject({ url: `/gateway/webhook?orderId=${created.json().enrollment_id}` });
  await openPeriod(api, subscriptionId);
});
afterAll(() => api?.close());

/** The request a JSON client sends when it has nothing to say: the content type, zero bytes. */
const bodiless = (method: "POST" | "DELETE", url: string) =>
  api.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
  });

describe("a JSON content type with no body", () => {
  it("cancels a scheduled plan change", async () => {
    const gold = await api.call("POST", "/v1/plans", {
      body: { ...PLAN_BODY, name: "Gold", amount: "200.00" },
    });
    const change = await api.call("POST", `/v1/subscriptions/${subscriptionId}/change-plan`, {
      body: { plan_id: gold.json().id, proration: "at_period_end" },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(change.json().plan_change.status).toBe("scheduled");

    const canceled = await bodiless("POST", `/v1/subscriptions/${subscriptionId}/change-plan/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toMatchObject({ id: subscriptionId, plan_id: planId });
    // Nothing is left to cancel: the domain's answer, as with `{}`, not a body error.
    const again = await bodiless("POST", `/v1/subscriptions/${subscriptionId}/change-plan/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("no_scheduled_change");
  });

  it("removes a discount", async () => {
    await api.call("POST", "/v1/coupons", {
      body: { code: "EMPTYBODY", amount_off: "10.00", currency: "QAR", duration: "forever" },
    });
    const applied = await api.call("POST", `/v1/subscriptions/${subscriptionId}/discount`, {
      body: { coupon: "EMPTYBODY" },
    });
    expect(applied.json().discount.coupon_code).toBe("EMPTYBODY");

    const removed = await bodiless("DELETE", `/v1/subscriptions/${subscriptionId}/discount`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ id: subscriptionId, discount: null });
  });

  it("refunds a paid charge", async () => {
    const chargeId = await paidCharge(api, subscriptionId, 1);
    const refund = await bodiless("POST", `/v1/charges/${chargeId}/refund`);
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json()).toMatchObject({
      charge_id: chargeId,
      refund_status: "completed",
      amount: { amount: "100.00", amount_minor: 10000, currency: "QAR" },
    });
  });

  it("is still refused, naming the body, where a body is required", async () => {
    const before = (await api.call("GET", "/v1/plans?limit=100")).json().data.length;
    const refused = await bodiless("POST", "/v1/plans");
    expect(refused.statusCode).toBe(400);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({
      code: "validation_failed",
      detail: "body: a JSON body is required",
      errors: [{ field: "body", location: "body", message: "a JSON body is required" }],
    });
    expect((await api.call("GET", "/v1/plans?limit=100")).json().data).toHaveLength(before);
  });
});
