import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPlan } from "../../../src/plans/index.js";
import {
  type ApiHarness,
  activeSubscription,
  createApiHarness,
  openPeriod,
  PAYING_CARD,
  PLAN_BODY,
} from "./support.js";

let api: ApiHarness;
let planId: string;
let customerId: string;
beforeAll(async () => {
  api = await createApiHarness();
  planId = (await api.call("POST", "/v1/plans", { body: PLAN_BODY })).json().id;
  customerId = (await api.call("POST", "/v1/customers", { body: { email: "subscriber@example.qa" } })).json()
    .id;
});
afterAll(() => api?.close());

const problem = (response: { json: () => unknown }) =>
  response.json() as {
    code: string;
    detail: string;
    from?: string;
    to?: string;
    errors?: { field: string }[];
  };

describe("subscribing", () => {
  it("enrolls a customer and answers a checkout URL that the gateway accepts", async () => {
    const response = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customerId, plan_id: planId },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      id: expect.any(String),
      customer_id: customerId,
      plan_id: planId,
      status: "pending_enrollment",
      cancel_at_period_end: false,
      enrollment_id: expect.any(String),
      checkout_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/[0-9a-f]{24}$/),
    });
    const paid = await api.h.simAdmin<{ status: string }>("POST", "/_sim/pay", {
      checkout_url: body.checkout_url,
      ...PAYING_CARD,
    });
    expect(paid.status).toBe("SUCCESS");

    // The gateway's webhook makes the engine verify the payment, after which the API shows it live.
    await api.app.inject({ url: `/gateway/webhook?orderId=${body.enrollment_id}` });
    const fetched = (await api.call("GET", `/v1/subscriptions/${body.id}`)).json();
    expect(fetched.status).toBe("active");
    // The first period is billed at once, by the scheduler.
    expect(fetched.next_billing_at).toBe(api.h.clock.now().toUTC().toISO());

    const events = (await api.call("GET", `/v1/subscriptions/${body.id}/events`)).json();
    const types = events.data.map((event: { type: string }) => event.type);
    expect(types[0]).toBe("subscription.created");
    expect(types).toContain("subscription.activated");
    expect(events.data[0]).toMatchObject({ actor: `api:${api.keyId}`, subscription_id: body.id });
  });

  it("names the missing and malformed fields", async () => {
    const response = await api.call("POST", "/v1/subscriptions", { body: { customer_id: "cus_1" } });
    expect(response.statusCode).toBe(400);
    expect(
      problem(response)
        .errors?.map((e) => e.field)
        .sort(),
    ).toEqual(["customer_id", "plan_id"]);
  });

  it("refuses an unknown customer or plan, naming the field", async () => {
    const noCustomer = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: randomUUID(), plan_id: planId },
    });
    expect(noCustomer.statusCode).toBe(422);
    expect(problem(noCustomer)).toMatchObject({
      code: "unknown_reference",
      errors: [{ field: "customer_id" }],
    });
    const noPlan = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customerId, plan_id: randomUUID() },
    });
    expect(problem(noPlan)).toMatchObject({ code: "unknown_reference", errors: [{ field: "plan_id" }] });
  });

  it("refuses a second subscription of a customer to a plan with 409 naming the first, unless asked", async () => {
    const customer = (
      await api.call("POST", "/v1/customers", { body: { email: "twice@example.qa" } })
    ).json();
    const body = { customer_id: customer.id, plan_id: planId };
    const headers = { "idempotency-key": randomUUID() };
    const first = await api.call("POST", "/v1/subscriptions", { body, headers });
    expect(first.statusCode).toBe(201);
    // The same request again under its Idempotency-Key is the first answer replayed.
    const replayed = await api.call("POST", "/v1/subscriptions", { body, headers });
    expect(replayed.json().id).toBe(first.json().id);

    const again = await api.call("POST", "/v1/subscriptions", { body });
    expect(again.statusCode).toBe(409);
    expect(again.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(again.json()).toMatchObject({
      code: "already_subscribed",
      subscription_id: first.json().id,
      subscription_status: "pending_enrollment",
      detail: expect.stringContaining('send "allow_duplicate": true'),
    });
    const second = await api.call("POST", "/v1/subscriptions", { body: { ...body, allow_duplicate: true } });
    expect(second.statusCode).toBe(201);
    expect(second.json().id).not.toBe(first.json().id);

    // A canceled subscription does not count.
    await api.call("POST", `/v1/subscriptions/${first.json().id}/cancel`, { body: {} });
    await api.call("POST", `/v1/subscriptions/${second.json().id}/cancel`, { body: {} });
    expect((await api.call("POST", "/v1/subscriptions", { body })).statusCode).toBe(201);
  });

  it("leaves no open subscription when the gateway refuses the checkout", async () => {
    const customer = (
      await api.call("POST", "/v1/customers", { body: { email: "refused@example.qa" } })
    ).json();
    const merchant = `/_sim/merchants/${api.h.sim.defaultApiKey}`;
    await api.h.simAdmin("PATCH", merchant, { currencies: ["USD"] });
    let refused: Awaited<ReturnType<ApiHarness["call"]>>;
    try {
      refused = await api.call("POST", "/v1/subscriptions", {
        body: { customer_id: customer.id, plan_id: planId },
      });
    } finally {
      await api.h.simAdmin("PATCH", merchant, { currencies: ["QAR"] });
    }
    expect(refused.statusCode).toBe(502);
    const body = refused.json();
    expect(body).toMatchObject({
      code: "checkout_failed",
      subscription_canceled: true,
      outcome_unknown: false,
      retryable: false,
      detail: expect.stringContaining("the subscription was not started"),
    });
    expect((await api.call("GET", `/v1/subscriptions/${body.subscription_id}`)).json().status).toBe(
      "canceled",
    );
    // Nothing open is left, so subscribing again (the account takes QAR again) is not a duplicate.
    const retried = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customer.id, plan_id: planId },
    });
    expect(retried.statusCode).toBe(201);
  });

  it("refuses a plan in a currency the gateway account no longer takes, with 422", async () => {
    const ctx = api.h.ctx;
    const dinar = await createPlan(
      { ...ctx, config: { ...ctx.config, GATEWAY_CURRENCIES: ["QAR", "KWD"] } },
      { name: "Dinar", amount: "5.000", currency: "KWD", interval: "month" },
    );
    const response = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customerId, plan_id: dinar.id },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: "currency_not_supported",
      errors: [{ field: "plan_id", location: "body" }],
    });
    expect(response.json().detail).toContain("allowed: QAR (GATEWAY_CURRENCIES)");
  });

  it("lists subscriptions by status and customer, and 404s an unknown one", async () => {
    const { subscriptionId, customerId: owner } = await activeSubscription(api, "lister@example.qa");
    const active = (await api.call("GET", "/v1/subscriptions?status=active")).json();
    expect(active.data.map((s: { id: string }) => s.id)).toContain(subscriptionId);
    expect(active.data.every((s: { status: string }) => s.status === "active")).toBe(true);
    const mine = (await api.call("GET", `/v1/subscriptions?customer_id=${owner}`)).json();
    expect(mine.data.map((s: { id: string }) => s.id)).toEqual([subscriptionId]);
    const bad = await api.call("GET", "/v1/subscriptions?status=sleeping");
    expect(bad.statusCode).toBe(400);
    expect(problem(bad).errors?.[0]?.field).toBe("status");
    expect((await api.call("GET", `/v1/subscriptions/${randomUUID()}`)).statusCode).toBe(404);
    expect((await api.call("GET", `/v1/subscriptions/${randomUUID()}/events`)).statusCode).toBe(404);
  });
});

describe("lifecycle actions", () => {
  it("pauses and resumes an active subscription", async () => {
    const { subscriptionId } = await activeSubscription(api, "pauser@example.qa");
    const paused = await api.call("POST", `/v1/subscriptions/${subscriptionId}/pause`);
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ id: subscriptionId, status: "paused", next_billing_at: null });
    expect(paused.json().paused_at).toEqual(expect.any(String));
    const resumed = await api.call("POST", `/v1/subscriptions/${subscriptionId}/resume`, { body: {} });
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json()).toMatchObject({ status: "active", paused_at: null });
  });

  it("refuses an illegal transition with 422, naming both states", async () => {
    const customer = (
      await api.call("POST", "/v1/customers", { body: { email: "pauser@example.qa" } })
    ).json();
    const created = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customer.id, plan_id: planId },
    });
    const response = await api.call("POST", `/v1/subscriptions/${created.json().id}/pause`);
    expect(response.statusCode).toBe(422);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(problem(response)).toMatchObject({
      code: "illegal_transition",
      from: "pending_enrollment",
      to: "paused",
      detail: expect.stringContaining("from pending_enrollment to paused"),
    });
  });

  it("cancels at the end of the period, then at once", async () => {
    const { subscriptionId } = await activeSubscription(api, "leaver@example.qa");
    const period = await openPeriod(api, subscriptionId);
    const scheduled = await api.call("POST", `/v1/subscriptions/${subscriptionId}/cancel`, {
      body: { at_period_end: true },
    });
    expect(scheduled.statusCode).toBe(200);
    expect(scheduled.json()).toMatchObject({
      status: "active",
      cancel_at_period_end: true,
      current_period_end: period.end.toISOString(),
    });
    const now = await api.call("POST", `/v1/subscriptions/${subscriptionId}/cancel`, {
      body: { reason: "customer asked" },
    });
    expect(now.json()).toMatchObject({ status: "canceled", ended_reason: "customer asked" });
    expect(now.json().canceled_at).toEqual(expect.any(String));

    const resume = await api.call("POST", `/v1/subscriptions/${subscriptionId}/resume`);
    expect(problem(resume)).toMatchObject({ code: "illegal_transition", from: "canceled", to: "active" });
    const link = await api.call("POST", `/v1/subscriptions/${subscriptionId}/new-card-link`);
    expect(link.statusCode).toBe(422);
    expect(problem(link).code).toBe("subscription_canceled");
  });

  it("names a bad cancel field and refuses a body on pause", async () => {
    const { subscriptionId } = await activeSubscription(api, "picky@example.qa");
    const bad = await api.call("POST", `/v1/subscriptions/${subscriptionId}/cancel`, {
      body: { at_period_end: "yes" },
    });
    expect(bad.statusCode).toBe(400);
    expect(problem(bad).errors).toEqual([expect.objectContaining({ field: "at_period_end" })]);
    const extra = await api.call("POST", `/v1/subscriptions/${subscriptionId}/pause`, {
      body: { now: true },
    });
    expect(problem(extra).errors).toEqual([expect.objectContaining({ field: "now" })]);
  });

  it("gives a new card link for a live subscription", async () => {
    const { subscriptionId } = await activeSubscription(api, "newcard@example.qa");
    const response = await api.call("POST", `/v1/subscriptions/${subscriptionId}/new-card-link`);
    expect(response.statusCode).toBe(201);
    const { checkout_url } = response.json();
    expect(checkout_url).toMatch(/\/checkout\/[0-9a-f]{24}$/);
    const paid = await api.h.simAdmin<{ status: string }>("POST", "/_sim/pay", {
      checkout_url,
      ...PAYING_CARD,
    });
    expect(paid.status).toBe("SUCCESS");
  });

  it("404s every action on an unknown subscription", async () => {
    for (const action of ["cancel", "pause", "resume", "new-card-link"]) {
      const response = await api.call("POST", `/v1/subscriptions/${randomUUID()}/${action}`);
      expect(response.statusCode, action).toBe(404);
      expect(problem(response).code).toBe("not_found");
    }
  });
});
