import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processChargeBatch } from "../../../src/charging/index.js";
import { charges, events } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { type ApiHarness, activeSubscription, createApiHarness, PLAN_BODY } from "./support.js";

/**
 * Collection by payment link on the merchant API: plans that default to it, subscribing by link
 * (no card, no checkout), switching methods, and the payment link of a charge awaiting payment.
 */

let api: ApiHarness;
beforeAll(async () => {
  api = await createApiHarness();
});
afterAll(() => api?.close());

let emails = 0;
async function customer(): Promise<string> {
  emails += 1;
  const created = await api.call("POST", "/v1/customers", { body: { email: `link${emails}@example.qa` } });
  expect(created.statusCode).toBe(201);
  return created.json().id;
}

async function plan(body: Record<string, unknown> = {}): Promise<{ id: string } & Record<string, unknown>> {
  const created = await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, ...body } });
  expect(created.statusCode, created.body).toBe(201);
  return created.json();
}

const switchTo = (subscriptionId: string, method: string) =>
  api.call("POST", `/v1/subscriptions/${subscriptionId}/collection-method`, {
    body: { collection_method: method },
  });

describe("plans", () => {
  it("creates a plan whose trial needs no card, and shows how its subscriptions pay", async () => {
    const created = await plan({ trial_days: 7, trial_without_card: true });
    expect(created).toMatchObject({
      trial_days: 7,
      trial_without_card: true,
      collection_method: "charge_automatically",
    });
    const fetched = await api.call("GET", `/v1/plans/${created.id}`);
    expect(fetched.json()).toEqual(created);

    const byLink = await plan({ collection_method: "send_payment_link" });
    expect(byLink).toMatchObject({ collection_method: "send_payment_link", trial_without_card: false });
    const listed = (await api.call("GET", "/v1/plans")).json().data as { id: string }[];
    expect(listed).toContainEqual(created);
  });

  it("refuses a trial without card without trial days, and an unknown collection method", async () => {
    const noTrial = await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, trial_without_card: true } });
    expect(noTrial.statusCode).toBe(400);
    expect(noTrial.json().errors).toContainEqual(
      expect.objectContaining({ field: "trial_without_card", location: "body" }),
    );
    const bogus = await api.call("POST", "/v1/plans", { body: { ...PLAN_BODY, collection_method: "cash" } });
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json().errors).toContainEqual(expect.objectContaining({ field: "collection_method" }));
  });
});

describe("subscribing by payment link", () => {
  it("starts the subscription at once, with no enrollment and no checkout", async () => {
    const { id: planId } = await plan();
    const customerId = await customer();
    const response = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: customerId, plan_id: planId, collection_method: "send_payment_link" },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      customer_id: customerId,
      plan_id: planId,
      status: "active",
      collection_method: "send_payment_link",
      enrollment_id: null,
      checkout_url: null,
    });
    const fetched = await api.call("GET", `/v1/subscriptions/${response.json().id}`);
    expect(fetched.json()).toMatchObject({ status: "active", collection_method: "send_payment_link" });
  });

  it("subscribes by link by default to a plan whose trial needs no card: trialing", async () => {
    const { id: planId } = await plan({ trial_days: 14, trial_without_card: true });
    const response = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: await customer(), plan_id: planId },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      status: "trialing",
      collection_method: "send_payment_link",
      enrollment_id: null,
      checkout_url: null,
      trial_end: expect.any(String),
    });
  });

  it("still opens a checkout when the subscription asks for the card on such a plan", async () => {
    const { id: planId } = await plan({ trial_days: 14, trial_without_card: true });
    const response = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: await customer(), plan_id: planId, collection_method: "charge_automatically" },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      status: "pending_enrollment",
      collection_method: "charge_automatically",
      enrollment_id: expect.any(String),
      checkout_url: expect.stringContaining("/checkout/"),
    });
  });

  it("refuses an unknown collection method", async () => {
    const { id: planId } = await plan();
    const response = await api.call("POST", "/v1/subscriptions", {
      body: { customer_id: await customer(), plan_id: planId, collection_method: "cash" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      expect.objectContaining({ field: "collection_method", location: "body" }),
    ]);
  });
});

describe("switching the collection method", () => {
  it("refuses to charge automatically without a card, naming why", async () => {
    const { id: planId } = await plan();
    const subscription = (
      await api.call("POST", "/v1/subscriptions", {
        body: { customer_id: await customer(), plan_id: planId, collection_method: "send_payment_link" },
      })
    ).json();
    const refused = await switchTo(subscription.id, "charge_automatically");
    expect(refused.statusCode).toBe(422);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({
      code: "no_usable_card",
      detail: expect.stringContaining("no card on file"),
      payment_method_id: null,
    });
    const unchanged = await api.call("GET", `/v1/subscriptions/${subscription.id}`);
    expect(unchanged.json().collection_method).toBe("send_payment_link");
  });

  it("switches a card subscription to payment links and back, each time answering the subscription", async () => {
    const { subscriptionId } = await activeSubscription(api, "switcher@example.qa");
    // Its first period is due: the tick makes its charge, which waits for the card.
    await runBillingTick(api.h.ctx);
    const [due] = await api.h.ctx.db.select().from(charges).where(eq(charges.subscriptionId, subscriptionId));
    expect(due).toMatchObject({ status: "scheduled" });

    const toLink = await switchTo(subscriptionId, "send_payment_link");
    expect(toLink.statusCode, toLink.body).toBe(200);
    expect(toLink.json()).toMatchObject({
      id: subscriptionId,
      status: "active",
      collection_method: "send_payment_link",
    });
    // The waiting charge went out as a payment link at once.
    const linked = (await api.call("GET", `/v1/charges/${due!.id}`)).json();
    expect(linked).toMatchObject({
      status: "awaiting_payment",
      payment_link: expect.stringContaining("/pay/"),
    });
    const again = await switchTo(subscriptionId, "send_payment_link");
    expect(again.statusCode).toBe(200);
    expect(again.json().collection_method).toBe("send_payment_link");

    // The card saved at enrollment is still on file, so it can be charged again.
    const toCard = await switchTo(subscriptionId, "charge_automatically");
    expect(toCard.statusCode, toCard.body).toBe(200);
    expect(toCard.json().collection_method).toBe("charge_automatically");
    // Back with the card, the charge no longer waits for its link, which is shown no more.
    const carded = (await api.call("GET", `/v1/charges/${due!.id}`)).json();
    expect(carded).toMatchObject({ status: "scheduled", payment_link: null });

    const changes = await api.h.ctx.db
      .select()
      .from(events)
      .where(
        and(
          eq(events.subscriptionId, subscriptionId),
          eq(events.type, "subscription.collection_method_changed"),
        ),
      )
      .orderBy(asc(events.id));
    expect(changes.map((event) => [event.data.from, event.data.to, event.actor])).toEqual([
      ["charge_automatically", "send_payment_link", `api:${api.keyId}`],
      ["send_payment_link", "charge_automatically", `api:${api.keyId}`],
    ]);
  });

  it("answers 404 for an unknown subscription, 409 for a canceled one, 400 for a bad method", async () => {
    const missing = await switchTo(randomUUID(), "send_payment_link");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe("not_found");

    const { id: planId } = await plan();
    const subscription = (
      await api.call("POST", "/v1/subscriptions", {
        body: { customer_id: await customer(), plan_id: planId, collection_method: "send_payment_link" },
      })
    ).json();
    await api.call("POST", `/v1/subscriptions/${subscription.id}/cancel`, { body: {} });
    const ended = await switchTo(subscription.id, "charge_automatically");
    expect(ended.statusCode).toBe(409);
    expect(ended.json()).toMatchObject({ code: "subscription_ended", status: "canceled" });

    const bad = await switchTo(subscription.id, "cash");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ field: "collection_method" })]);
    const none = await api.call("POST", `/v1/subscriptions/${subscription.id}/collection-method`, {
      body: {},
    });
    expect(none.statusCode).toBe(400);
  });
});

describe("a charge awaiting payment by link", () => {
  it("shows its payment link, the one the merchant was sent, and none before it went out", async () => {
    const { id: planId } = await plan();
    const subscription = (
      await api.call("POST", "/v1/subscriptions", {
        body: { customer_id: await customer(), plan_id: planId, collection_method: "send_payment_link" },
      })
    ).json();
    await runBillingTick(api.h.ctx);
    const [due] = await api.h.ctx.db
      .select()
      .from(charges)
      .where(eq(charges.subscriptionId, subscription.id));
    expect(due).toBeDefined();
    const scheduled = (await api.call("GET", `/v1/charges/${due!.id}`)).json();
    expect(scheduled).toMatchObject({ status: "scheduled", payment_link: null });

    await processChargeBatch(api.h.ctx, [due!.id]);
    const charge = await api.call("GET", `/v1/charges/${due!.id}`);
    expect(charge.statusCode, charge.body).toBe(200);
    expect(charge.json()).toMatchObject({
      id: due!.id,
      subscription_id: subscription.id,
      status: "awaiting_payment",
      payment_link: expect.stringMatching(new RegExp(`^${api.h.ctx.publicUrl}/pay/${due!.id}/[\\w-]+$`)),
    });
    const [sent] = await api.h.ctx.db
      .select()
      .from(events)
      .where(and(eq(events.chargeId, due!.id), eq(events.type, "charge.payment_link_created")));
    expect(charge.json().payment_link).toBe((sent!.data as { payment_link: string }).payment_link);

    const listed = await api.call(
      "GET",
      `/v1/charges?status=awaiting_payment&subscription_id=${subscription.id}`,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data).toEqual([charge.json()]);

    // Still no card to go back to: the charge keeps waiting for its link.
    const refused = await switchTo(subscription.id, "charge_automatically");
    expect(refused.json().code).toBe("no_usable_card");

    // "Retry now" cannot collect it: the customer pays it through its link, which the 409 names.
    const retry = await api.call("POST", `/v1/charges/${due!.id}/retry`);
    expect(retry.statusCode, retry.body).toBe(409);
    expect(retry.json()).toMatchObject({
      code: "charge_pays_by_link",
      charge_status: "awaiting_payment",
      payment_link: charge.json().payment_link,
    });
  });
});
