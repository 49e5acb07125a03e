import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { SubscriptionState } from "../../../src/billing/index.js";
import { chargeAttempts, charges, events, subscriptions } from "../../../src/db/schema/index.js";
import type { ApiHarness } from "../api/support.js";

/** What the entitlements tests share: PUT (the API harness knows no PUT), catalogue and state setup. */

export function put(api: ApiHarness, url: string, body?: unknown) {
  return api.app.inject({
    method: "PUT",
    url,
    headers: {
      authorization: `Bearer ${api.key}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

async function ok(response: { statusCode: number; body: string; json: () => unknown }, expected = 200) {
  if (response.statusCode !== expected) throw new Error(`answered ${response.statusCode}: ${response.body}`);
  return response.json() as Record<string, unknown> & { id: string };
}

export async function feature(api: ApiHarness, code: string, kind: "boolean" | "limit") {
  return ok(await api.call("POST", "/v1/features", { body: { code, name: code, kind } }), 201);
}

/** A plan including `grants`: code → limit (a number or null) for limit features, true for switches. */
export async function planWith(api: ApiHarness, grants: Record<string, number | null | true> = {}) {
  const plan = await ok(
    await api.call("POST", "/v1/plans", {
      body: { name: "Plan", amount: "100.00", currency: "QAR", interval: "month" },
    }),
    201,
  );
  for (const [code, limit] of Object.entries(grants)) {
    await ok(await put(api, `/v1/plans/${plan.id}/features/${code}`, limit === true ? {} : { limit }));
  }
  return plan.id;
}

export async function customer(api: ApiHarness) {
  return (
    await ok(await api.call("POST", "/v1/customers", { body: { email: `${randomUUID()}@example.qa` } }), 201)
  ).id;
}

/** A subscription row in `status`, written past the services (what they leave, at the billing clock). */
export async function subscriptionIn(
  api: ApiHarness,
  customerId: string,
  planId: string,
  status: SubscriptionState,
): Promise<string> {
  const now = api.h.clock.now();
  const next = now.plus({ months: 1 }).toJSDate();
  const live = status === "trialing" || status === "active" || status === "past_due";
  const [row] = await api.h.ctx.db
    .insert(subscriptions)
    .values({
      customerId,
      planId,
      status,
      billingAnchor: status === "pending_enrollment" ? null : now.toJSDate(),
      nextBillingAt: live ? next : null,
      trialEnd: status === "trialing" ? next : null,
      canceledAt: status === "canceled" ? now.toJSDate() : null,
      pausedAt: status === "paused" ? now.toJSDate() : null,
    })
    .returning({ id: subscriptions.id });
  return row!.id;
}

export interface UnpaidChargeSetup {
  status?: "retrying" | "processing" | "needs_review" | "scheduled";
  firstFailedDaysAgo?: number | null;
  dueDaysAgo?: number;
  openAttempt?: "in_flight" | "unknown";
}

/** An open charge of a past_due subscription: declined `firstFailedDaysAgo` days ago, or never tried. */
export async function unpaidCharge(api: ApiHarness, subscriptionId: string, setup: UnpaidChargeSetup = {}) {
  const now = api.h.clock.now();
  const start = now.minus({ days: setup.dueDaysAgo ?? setup.firstFailedDaysAgo ?? 0 });
  const status = setup.status ?? "retrying";
  const [charge] = await api.h.ctx.db
    .insert(charges)
    .values({
      subscriptionId,
      planId: sql`(select plan_id from subscriptions where id = ${subscriptionId})`,
      periodStart: start.toJSDate(),
      periodEnd: start.plus({ months: 1 }).toJSDate(),
      amountMinor: 10_000,
      currency: "QAR",
      status,
      attemptCount: setup.firstFailedDaysAgo == null ? 0 : 1,
      nextAttemptAt:
        status === "retrying" || status === "scheduled" ? now.plus({ days: 1 }).toJSDate() : null,
      firstFailedAt:
        setup.firstFailedDaysAgo == null ? null : now.minus({ days: setup.firstFailedDaysAgo }).toJSDate(),
    })
    .returning({ id: charges.id });
  if (setup.openAttempt) {
    await api.h.ctx.db.insert(chargeAttempts).values({
      chargeId: charge!.id,
      orderId: randomUUID(),
      attemptNumber: 2,
      status: setup.openAttempt,
    });
  }
  return charge!.id;
}

export interface ChangedEvent {
  id: number;
  actor: string;
  data: {
    customer_id: string;
    entitlements: { feature: string; kind: string; enabled: boolean; limit: number | null }[];
    subscriptions: string[];
    as_of: string;
    grace_ends_at: string | null;
    caused_by: Record<string, unknown>[];
  };
}

/** The customer's `entitlements.changed` events, oldest first. */
export async function changedEvents(api: ApiHarness, customerId: string): Promise<ChangedEvent[]> {
  const rows = await api.h.ctx.db
    .select({ id: events.id, actor: events.actor, data: events.data })
    .from(events)
    .where(and(eq(events.customerId, customerId), eq(events.type, "entitlements.changed")))
    .orderBy(asc(events.id));
  return rows as ChangedEvent[];
}
