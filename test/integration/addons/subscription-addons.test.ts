import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveAddons } from "../../../src/addons/index.js";
import { customers, events, plans, subscriptionAddons, subscriptions } from "../../../src/db/schema/index.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";
import { createSubscription } from "../charging/fixtures.js";

/**
 * Add-ons on subscriptions through the merchant API: attaching, changing the quantity (a new row,
 * the old one ended, so history stays), the same quantity answered as is, removing, the events, and
 * every refusal: a recurring card token (or a recurring plan before its card), another currency,
 * an archived add-on, the subscription's status, an unknown add-on or subscription, a quantity too
 * large to price.
 */

let api: ApiHarness;

beforeAll(async () => {
  api = await createApiHarness({ env: { GATEWAY_CURRENCIES: "QAR,USD" } });
  const catalogue = [
    { code: "support", name: "Priority support", currency: "QAR", amount: "25.00" },
    { code: "seat", name: "Extra seat", currency: "QAR", price_model: "per_unit", amount: "10.00" },
    {
      code: "storage",
      name: "Storage",
      currency: "QAR",
      price_model: "tiered",
      tiers: [
        { up_to: 10, unit_amount: "2.00" },
        { up_to: null, unit_amount: "1.00" },
      ],
    },
    { code: "dollars", name: "In dollars", currency: "USD", amount: "5.00" },
    { code: "huge", name: "Huge", currency: "QAR", price_model: "per_unit", amount: "90000000000.00" },
    { code: "retired", name: "Retired", currency: "QAR", amount: "1.00" },
  ];
  for (const body of catalogue) {
    const created = await api.call("POST", "/v1/addons", { body });
    if (created.statusCode !== 201) throw new Error(`${body.code}: ${created.body}`);
  }
  await api.call("POST", "/v1/addons/retired/archive");
});
afterAll(() => api?.close());

interface Problem {
  code: string;
  detail: string;
  errors?: { field: string; location: string; message: string }[];
}
const problem = (response: { json: () => unknown }) => response.json() as Problem;

const put = (subscriptionId: string, code: string, body: unknown) =>
  api.app.inject({
    method: "PUT",
    url: `/v1/subscriptions/${subscriptionId}/addons/${code}`,
    headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
const remove = (subscriptionId: string, code: string) =>
  api.call("DELETE", `/v1/subscriptions/${subscriptionId}/addons/${code}`);
const list = async (subscriptionId: string) =>
  (await api.call("GET", `/v1/subscriptions/${subscriptionId}/addons`)).json().data as {
    code: string;
    quantity: number;
    period_amount: { amount: string };
  }[];

const rowsOf = (subscriptionId: string) =>
  api.h.ctx.db
    .select()
    .from(subscriptionAddons)
    .where(eq(subscriptionAddons.subscriptionId, subscriptionId))
    .orderBy(asc(subscriptionAddons.createdAt), asc(subscriptionAddons.addedAt));

const addonEvents = (subscriptionId: string) =>
  api.h.ctx.db
    .select({ type: events.type, data: events.data, actor: events.actor })
    .from(events)
    .where(and(eq(events.subscriptionId, subscriptionId), like(events.type, "subscription.addon_%")))
    .orderBy(asc(events.id));

/** An active subscription charged with an autosave card: it may carry add-ons. */
const autosave = async () => (await createSubscription(api.h, { kind: "autosave" })).subscriptionId;

/**
 * A trialing subscription to a plan with billing_mode recurring whose card is not saved yet (the
 * enrolment's state before its checkout), paying as `collectionMethod` says.
 */
async function withoutCard(collectionMethod: "charge_automatically" | "send_payment_link") {
  const { db, clock } = api.h.ctx;
  const [customer] = await db
    .insert(customers)
    .values({ email: `nc-${randomUUID()}@example.com` })
    .returning();
  const [plan] = await db
    .insert(plans)
    .values({
      name: "Recurring",
      amountMinor: 10_000,
      currency: "QAR",
      intervalUnit: "month",
      intervalCount: 1,
      billingMode: "recurring",
    })
    .returning();
  const trialEnd = clock.now().plus({ days: 14 }).toJSDate();
  const [subscription] = await db
    .insert(subscriptions)
    .values({
      customerId: customer!.id,
      planId: plan!.id,
      status: "trialing",
      billingAnchor: trialEnd,
      nextBillingAt: trialEnd,
      trialEnd,
      collectionMethod,
    })
    .returning();
  return subscription!.id;
}

describe("PUT /v1/subscriptions/:id/addons/:code", () => {
  it("attaches, changes the quantity on a new row, answers the same quantity as is, and removes", async () => {
    const id = await autosave();
    const added = await put(id, "seat", { quantity: 3 });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({
      subscription_id: id,
      code: "seat",
      quantity: 3,
      price_model: "per_unit",
      amount: { amount: "10.00", amount_minor: 1000, currency: "QAR" },
      period_amount: { amount: "30.00", amount_minor: 3000, currency: "QAR" },
      change: "added",
      from_quantity: null,
      added_at: api.h.clock.now().toUTC().toISO(),
      removed_at: null,
    });
    const firstRow = added.json().id as string;

    api.h.clock.advance({ hours: 1 });
    const updated = await put(id, "seat", { quantity: 5 });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ quantity: 5, change: "updated", from_quantity: 3 });
    expect(updated.json().period_amount.amount).toBe("50.00");
    expect(updated.json().id).not.toBe(firstRow);

    const same = await put(id, "seat", { quantity: 5 });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({
      id: updated.json().id,
      quantity: 5,
      change: "unchanged",
      from_quantity: 5,
    });

    // A tiered add-on beside it: 12 units are 10 × 2.00 + 2 × 1.00.
    // Later, so it is billed after the seats (lines go oldest first; the same instant orders by id).
    api.h.clock.advance({ minutes: 1 });
    expect((await put(id, "storage", { quantity: 12 })).json().period_amount.amount).toBe("22.00");
    expect(await list(id)).toMatchObject([
      { code: "seat", quantity: 5, period_amount: { amount: "50.00" } },
      { code: "storage", quantity: 12, period_amount: { amount: "22.00" } },
    ]);
    // What the scheduler bills the next period with (live-addons.ts) sees the same.
    const live = (await liveAddons(api.h.database.sql, [id])).get(id) ?? [];
    expect(live.map((addon) => [addon.code, addon.quantity])).toEqual([
      ["seat", 5],
      ["storage", 12],
    ]);

    api.h.clock.advance({ hours: 1 });
    const removed = await remove(id, "seat");
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({
      code: "seat",
      quantity: 5,
      removed_at: api.h.clock.now().toUTC().toISO(),
    });
    expect((await list(id)).map((row) => row.code)).toEqual(["storage"]);

    const again = await remove(id, "seat");
    expect(again.statusCode).toBe(404);
    expect(problem(again).code).toBe("addon_not_attached");

    // History: every quantity the subscription had, each ended when the next began.
    const rows = (await rowsOf(id)).filter((row) => row.quantity !== 12);
    expect(rows.map((row) => [row.quantity, row.removedAt !== null])).toEqual([
      [3, true],
      [5, true],
    ]);
    expect(rows[0]!.removedAt).toEqual(rows[1]!.addedAt);
    expect(rows.every((row) => row.actor === `api:${api.keyId}`)).toBe(true);

    const recorded = await addonEvents(id);
    expect(recorded.map((event) => event.type)).toEqual([
      "subscription.addon_added",
      "subscription.addon_updated",
      "subscription.addon_added",
      "subscription.addon_removed",
    ]);
    expect(recorded[0]!.data).toMatchObject({ addon_code: "seat", quantity: 3 });
    expect(recorded[1]!.data).toMatchObject({
      addon_code: "seat",
      quantity: 5,
      from_quantity: 3,
      to_quantity: 5,
    });
    expect(recorded[3]!.data).toMatchObject({ addon_code: "seat", quantity: 5 });
  });

  it("refuses a subscription charged through a recurring card token, and writes nothing", async () => {
    const { subscriptionId } = await createSubscription(api.h, { kind: "recurring" });
    const refused = await put(subscriptionId, "support", { quantity: 1 });
    expect(refused.statusCode).toBe(422);
    expect(problem(refused).code).toBe("card_amount_fixed");
    expect(problem(refused).detail).toContain("recurring card token is charged the fixed amount");
    expect(problem(refused).detail).toContain("autosave");
    expect(await rowsOf(subscriptionId)).toEqual([]);
    expect(await addonEvents(subscriptionId)).toEqual([]);
  });

  it("refuses a recurring plan before its card is saved, unless the subscription pays by link", async () => {
    const byCard = await withoutCard("charge_automatically");
    const refused = await put(byCard, "support", { quantity: 1 });
    expect(refused.statusCode).toBe(422);
    expect(problem(refused).code).toBe("card_amount_fixed");

    // A payment link carries any amount: the trial without card takes add-ons.
    const byLink = await withoutCard("send_payment_link");
    const taken = await put(byLink, "support", { quantity: 1 });
    expect(taken.statusCode, taken.body).toBe(200);
  });

  it("refuses an add-on in another currency than the plan's, naming it", async () => {
    const id = await autosave();
    const refused = await put(id, "dollars", { quantity: 1 });
    expect(refused.statusCode).toBe(422);
    expect(problem(refused)).toMatchObject({
      code: "addon_currency_mismatch",
      addon_currency: "USD",
      subscription_currency: "QAR",
      errors: [{ field: "code", location: "path" }],
    });
  });

  it("refuses to attach an archived add-on, but lets one already attached change and go", async () => {
    const fresh = await autosave();
    const refused = await put(fresh, "retired", { quantity: 1 });
    expect(refused.statusCode).toBe(422);
    expect(problem(refused).code).toBe("addon_archived");

    const carrying = await autosave();
    expect((await put(carrying, "support", { quantity: 1 })).statusCode).toBe(200);
    await api.call("POST", "/v1/addons/support/archive");
    try {
      const changed = await put(carrying, "support", { quantity: 2 });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ change: "updated", addon_archived: true });
      expect((await remove(carrying, "support")).statusCode).toBe(200);
    } finally {
      await api.h.database.sql`update addons set archived_at = null where code = 'support'`;
    }
  });

  it("refuses a past_due subscription (its debt first) and a canceled one", async () => {
    const pastDue = await autosave();
    await put(pastDue, "support", { quantity: 1 });
    await api.h.ctx.db.update(subscriptions).set({ status: "past_due" }).where(eq(subscriptions.id, pastDue));
    const refused = await put(pastDue, "seat", { quantity: 1 });
    expect(refused.statusCode).toBe(409);
    expect(problem(refused)).toMatchObject({ code: "subscription_past_due", status: "past_due" });
    expect((await remove(pastDue, "support")).statusCode).toBe(409);

    const canceled = await autosave();
    await api.h.ctx.db
      .update(subscriptions)
      .set({ status: "canceled", canceledAt: new Date(), nextBillingAt: null })
      .where(eq(subscriptions.id, canceled));
    const ended = await put(canceled, "seat", { quantity: 1 });
    expect(ended.statusCode).toBe(409);
    expect(problem(ended)).toMatchObject({ code: "subscription_not_changeable", status: "canceled" });
  });

  it("answers 404 for an unknown add-on or subscription, and 400 naming a bad quantity", async () => {
    const id = await autosave();
    const unknown = await put(id, "no-such-addon", { quantity: 1 });
    expect(unknown.statusCode).toBe(404);
    expect(problem(unknown).code).toBe("not_found");
    const noSubscription = await put(randomUUID(), "seat", { quantity: 1 });
    expect(noSubscription.statusCode).toBe(404);
    expect((await api.call("GET", `/v1/subscriptions/${randomUUID()}/addons`)).statusCode).toBe(404);

    for (const body of [{ quantity: 0 }, { quantity: 1.5 }, { quantity: "2" }, { quantity: 1_000_001 }, {}]) {
      const bad = await put(id, "seat", body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(problem(bad).errors?.map((error) => error.field)).toEqual(["quantity"]);
    }
    const extra = await put(id, "seat", { quantity: 1, prorate: true });
    expect(extra.statusCode).toBe(400);
    expect(problem(extra).errors?.map((error) => error.field)).toEqual(["prorate"]);
  });

  it("refuses a quantity whose period price cannot be billed exactly, naming quantity", async () => {
    const id = await autosave();
    const refused = await put(id, "huge", { quantity: 1_000_000 });
    expect(refused.statusCode).toBe(422);
    expect(problem(refused)).toMatchObject({
      code: "quantity_too_large",
      errors: [{ field: "quantity", location: "body" }],
    });
    expect((await put(id, "huge", { quantity: 2 })).statusCode).toBe(200);
  });
});
