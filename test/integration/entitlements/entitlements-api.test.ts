import { eq, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processChargeBatch } from "../../../src/charging/index.js";
import { sqlOf } from "../../../src/db/index.js";
import { subscriptions, webhookDeliveries } from "../../../src/db/schema/index.js";
import { recordEvents } from "../../../src/events/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { createWebhookEndpoint } from "../../../src/webhooks/index.js";
import { webhookTestContext } from "../../webhooks/fixtures.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";
import { CARDS, chargesOf, createSubscription } from "../charging/fixtures.js";
import { changedEvents, customer, feature, planWith, put, subscriptionIn, unpaidCharge } from "./support.js";

/**
 * GET /v1/customers/{id}/entitlements on a real database: which subscriptions grant (trialing,
 * active, past_due within its grace or with an unknown outcome), how several merge, the in-process
 * cache and what drops it, and the `entitlements.changed` events and webhooks a change records.
 */

const START = DateTime.fromISO("2026-01-15T09:00:00Z", { zone: "utc" });
let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({ start: START.toISO()! });
  await feature(api, "sso", "boolean");
  await feature(api, "reports", "boolean");
  await feature(api, "audit", "boolean");
  await feature(api, "projects", "limit");
  await createWebhookEndpoint(webhookTestContext(api.h.ctx.db), { url: "https://merchant.example/hooks" });
});
afterAll(() => api?.close());

async function entitlementsOf(customerId: string) {
  const response = await api.call("GET", `/v1/customers/${customerId}/entitlements`);
  if (response.statusCode !== 200) throw new Error(`answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

const codes = (body: { entitlements: { feature: string }[] }) => body.entitlements.map((e) => e.feature);

describe("what grants", () => {
  it("trialing and active subscriptions; several merge: a switch if any, the largest limit", async () => {
    const a = await planWith(api, { sso: true, projects: 10 });
    const b = await planWith(api, { reports: true, projects: 25 });
    const c = await planWith(api, { audit: true, projects: null });
    const who = await customer(api);
    const trialing = await subscriptionIn(api, who, a, "trialing");
    const active = await subscriptionIn(api, who, b, "active");
    for (const status of ["paused", "unpaid", "canceled", "pending_enrollment"] as const) {
      await subscriptionIn(api, who, c, status);
    }

    expect(await entitlementsOf(who)).toEqual({
      customer_id: who,
      entitlements: [
        { feature: "projects", kind: "limit", enabled: true, limit: 25 },
        { feature: "reports", kind: "boolean", enabled: true, limit: null },
        { feature: "sso", kind: "boolean", enabled: true, limit: null },
      ],
      subscriptions: [trialing, active],
      as_of: START.toJSDate().toISOString(),
      grace_ends_at: null,
    });
  });

  it("null (unlimited) beats every number, and archived features are left out", async () => {
    await feature(api, "legacy", "boolean");
    const who = await customer(api);
    await subscriptionIn(api, who, await planWith(api, { projects: 5, legacy: true }), "active");
    await subscriptionIn(api, who, await planWith(api, { projects: null }), "active");
    await api.call("POST", "/v1/features/legacy/archive");

    const body = await entitlementsOf(who);
    expect(body.entitlements).toEqual([{ feature: "projects", kind: "limit", enabled: true, limit: null }]);
  });

  it("a customer without subscriptions has none, and an unknown customer is a 404", async () => {
    const who = await customer(api);
    expect(await entitlementsOf(who)).toMatchObject({ entitlements: [], subscriptions: [] });
    const unknown = await api.call("GET", "/v1/customers/00000000-0000-4000-8000-000000000000/entitlements");
    expect(unknown.statusCode).toBe(404);
  });
});

describe("past_due", () => {
  it("keeps granting for the grace days from the first failure, then stops, without waiting for the cache", async () => {
    api.h.clock.set(START);
    const sub = await createSubscription(api.h, { card: CARDS.alwaysDeclined });
    await put(api, `/v1/plans/${sub.planId}/features/sso`, {});
    await runBillingTick(api.h.ctx, { batchSize: 50 });
    await api.h.ctx.queues.obliterate();
    const [charge] = await chargesOf(api.h, sub.subscriptionId);
    await processChargeBatch(api.h.ctx, [charge!.id], { flushMs: 5 });
    const [declined] = await chargesOf(api.h, sub.subscriptionId);
    expect(declined).toMatchObject({ status: "retrying", firstFailedAt: START.toJSDate() });
    const [row] = await api.h.ctx.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, sub.subscriptionId));
    expect(row!.status).toBe("past_due");

    const graceEnd = START.plus({ days: 7 });
    const within = await entitlementsOf(sub.customerId);
    expect(within).toMatchObject({
      entitlements: [{ feature: "sso", kind: "boolean", enabled: true, limit: null }],
      subscriptions: [sub.subscriptionId],
      grace_ends_at: graceEnd.toJSDate().toISOString(),
    });
    // The decline that made it past_due told the merchant, with the grace's end.
    const told = (await changedEvents(api, sub.customerId)).at(-1)!;
    expect(told.data).toMatchObject({
      entitlements: [{ feature: "sso" }],
      grace_ends_at: graceEnd.toJSDate().toISOString(),
      caused_by: [{ event: "subscription.past_due", subscription_id: sub.subscriptionId }],
    });

    api.h.clock.set(graceEnd.minus({ seconds: 1 }));
    expect(codes(await entitlementsOf(sub.customerId))).toEqual(["sso"]);
    // The cached answer ends with the grace, whatever its TTL.
    api.h.clock.set(graceEnd);
    expect(await entitlementsOf(sub.customerId)).toMatchObject({
      entitlements: [],
      subscriptions: [],
      grace_ends_at: null,
      as_of: graceEnd.toJSDate().toISOString(),
    });
    api.h.clock.set(START);
  });

  it("counts from when the charge became due when it was never attempted", async () => {
    const plan = await planWith(api, { sso: true });
    const recent = await customer(api);
    await unpaidCharge(api, await subscriptionIn(api, recent, plan, "past_due"), {
      status: "scheduled",
      firstFailedDaysAgo: null,
      dueDaysAgo: 6,
    });
    const old = await customer(api);
    await unpaidCharge(api, await subscriptionIn(api, old, plan, "past_due"), {
      status: "scheduled",
      firstFailedDaysAgo: null,
      dueDaysAgo: 7,
    });

    expect(codes(await entitlementsOf(recent))).toEqual(["sso"]);
    expect(codes(await entitlementsOf(old))).toEqual([]);
  });

  it("never cuts off a subscription whose charge's gateway outcome is not known", async () => {
    const plan = await planWith(api, { sso: true });
    const cases = {
      declined: { firstFailedDaysAgo: 30 },
      needsReview: { status: "needs_review", firstFailedDaysAgo: 30 },
      attemptUnknown: { status: "processing", firstFailedDaysAgo: 30, openAttempt: "unknown" },
      attemptInFlight: { status: "processing", firstFailedDaysAgo: 30, openAttempt: "in_flight" },
    } as const;
    const granted: Record<string, string[]> = {};
    for (const [name, setup] of Object.entries(cases)) {
      const who = await customer(api);
      await unpaidCharge(api, await subscriptionIn(api, who, plan, "past_due"), setup);
      granted[name] = codes(await entitlementsOf(who));
    }
    expect(granted).toEqual({
      declined: [],
      needsReview: ["sso"],
      attemptUnknown: ["sso"],
      attemptInFlight: ["sso"],
    });
  });
});

describe("the cache and entitlements.changed", () => {
  it("answers from the cache until a status change recorded by this process drops it; the cancellation is announced", async () => {
    const plan = await planWith(api, { projects: 3 });
    const who = await customer(api);
    const subscription = await subscriptionIn(api, who, plan, "active");
    expect((await entitlementsOf(who)).entitlements).toEqual([
      { feature: "projects", kind: "limit", enabled: true, limit: 3 },
    ]);

    // Changed behind the services' back: the cached answer stands.
    await api.h.ctx.db.execute(sql`update plan_features set limit_value = 99 where plan_id = ${plan}`);
    expect((await entitlementsOf(who)).entitlements[0].limit).toBe(3);

    const canceled = await api.call("POST", `/v1/subscriptions/${subscription}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await entitlementsOf(who)).toMatchObject({ entitlements: [], subscriptions: [] });

    const [told] = await changedEvents(api, who);
    expect(told).toMatchObject({
      actor: `api:${api.keyId}`,
      data: {
        customer_id: who,
        entitlements: [],
        subscriptions: [],
        caused_by: [{ event: "subscription.canceled", subscription_id: subscription }],
      },
    });
    const deliveries = await api.h.ctx.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventId, told!.id));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      eventType: "entitlements.changed",
      status: "pending",
      payload: {
        id: `evt_${told!.id}`,
        type: "entitlements.changed",
        data: { customer_id: who, entitlements: [], caused_by: [{ event: "subscription.canceled" }] },
      },
    });
  });

  it("a subscription whose plan grants nothing changes nobody's entitlements: no event", async () => {
    const who = await customer(api);
    const subscription = await subscriptionIn(api, who, await planWith(api), "active");
    await api.call("POST", `/v1/subscriptions/${subscription}/cancel`);
    expect(await changedEvents(api, who)).toEqual([]);
  });

  it("is announced for pause and resume", async () => {
    const who = await customer(api);
    const subscription = await subscriptionIn(api, who, await planWith(api, { reports: true }), "active");
    expect(codes(await entitlementsOf(who))).toEqual(["reports"]);

    expect((await api.call("POST", `/v1/subscriptions/${subscription}/pause`)).statusCode).toBe(200);
    expect(codes(await entitlementsOf(who))).toEqual([]);
    expect((await api.call("POST", `/v1/subscriptions/${subscription}/resume`)).statusCode).toBe(200);
    expect(codes(await entitlementsOf(who))).toEqual(["reports"]);

    const told = await changedEvents(api, who);
    expect(told.map((event) => [event.data.caused_by[0]!.event, codes(event.data)])).toEqual([
      ["subscription.paused", []],
      ["subscription.resumed", ["reports"]],
    ]);
  });

  it("is announced to every customer on a plan whose features change, once per change", async () => {
    const plan = await planWith(api, { sso: true });
    const active = await customer(api);
    await subscriptionIn(api, active, plan, "active");
    const late = await customer(api);
    await unpaidCharge(api, await subscriptionIn(api, late, plan, "past_due"), { firstFailedDaysAgo: 1 });
    const gone = await customer(api);
    await subscriptionIn(api, gone, plan, "canceled");
    expect(codes(await entitlementsOf(active))).toEqual(["sso"]);

    const set = await put(api, `/v1/plans/${plan}/features/projects`, { limit: 7 });
    expect(set.statusCode).toBe(200);
    expect(await put(api, `/v1/plans/${plan}/features/projects`, { limit: 7 })).toMatchObject({
      statusCode: 200,
    });
    // The cached answer was dropped with the change.
    expect((await entitlementsOf(active)).entitlements).toContainEqual({
      feature: "projects",
      kind: "limit",
      enabled: true,
      limit: 7,
    });

    for (const who of [active, late]) {
      const told = await changedEvents(api, who);
      expect(told).toHaveLength(1);
      expect(told[0]!.data).toMatchObject({
        entitlements: [
          { feature: "projects", limit: 7 },
          { feature: "sso", limit: null },
        ],
        caused_by: [{ event: "plan.feature_set", plan_id: plan, feature: "projects" }],
      });
    }
    expect(await changedEvents(api, gone)).toEqual([]);

    expect((await api.call("DELETE", `/v1/plans/${plan}/features/sso`)).statusCode).toBe(200);
    const [, removed] = await changedEvents(api, active);
    expect(codes(removed!.data)).toEqual(["projects"]);
    expect(removed!.data.caused_by).toEqual([
      { event: "plan.feature_removed", plan_id: plan, feature: "sso" },
    ]);
    expect(codes(await entitlementsOf(active))).toEqual(["projects"]);
  });

  it("is announced when a plan change leaves a plan with features, in one statement for the batch", async () => {
    const rich = await planWith(api, { audit: true });
    const plain = await planWith(api);
    const who = await customer(api);
    const subscription = await subscriptionIn(api, who, rich, "active");
    const bystander = await customer(api);
    const unchanged = await subscriptionIn(api, bystander, rich, "active");

    await api.h.ctx.db.transaction(async (tx) => {
      await tx.update(subscriptions).set({ planId: plain }).where(eq(subscriptions.id, subscription));
      const now = api.h.clock.now();
      const base = { actor: "test", occurredAt: now, customerId: who, subscriptionId: subscription };
      await recordEvents(sqlOf(tx), [
        { ...base, type: "subscription.plan_changed", data: { from_plan_id: rich, to_plan_id: plain } },
        { ...base, type: "charge.succeeded" },
        // A quantity change keeps the plan: nothing to announce.
        {
          ...base,
          customerId: bystander,
          subscriptionId: unchanged,
          type: "subscription.plan_changed",
          data: { from_plan_id: rich, to_plan_id: rich },
        },
      ]);
    });

    const [told] = await changedEvents(api, who);
    expect(told!.data).toMatchObject({
      entitlements: [],
      caused_by: [{ event: "subscription.plan_changed", subscription_id: subscription }],
    });
    expect(await changedEvents(api, bystander)).toEqual([]);
  });
});
