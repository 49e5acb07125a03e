import { eq } from "drizzle-orm";
import { DateTime } from "luxon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChargeWorker } from "../../../src/charging/index.js";
import { events } from "../../../src/db/schema/index.js";
import { runBillingTick } from "../../../src/scheduler/index.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";
import { type CardSubscription, collections, createSubscription } from "../charging/fixtures.js";
import { chargesOfKind, linesOf, put, sendUsage, statusesOfKind } from "./support.js";

/**
 * A month of usage charged at its close, through the simulator: a subscription on an autosave plan
 * at 100.00 a month (Qatar, from 2026-01-01 00:00, i.e. 2025-12-31T21:00Z) prices api_calls (sum)
 * at 0.05 a call and active_users (unique_count) tiered, 2 free then 1.50 each. January ends
 * 2026-01-31T21:00Z; USAGE_GRACE_HOURS is 24, so its usage is charged from 2026-02-01T21:00Z.
 */
const START = "2025-12-31T21:00:00Z";
const MID_JANUARY = "2026-01-15T10:00:00Z";
const JANUARY_END = "2026-01-31T21:00:00Z";
const LATE = "2026-01-31T23:00:00Z";
const GRACE_ENDS = "2026-02-01T21:00:00Z";

let api: ApiHarness;
let sub: CardSubscription;

const at = (iso: string) => api.h.clock.set(DateTime.fromISO(iso));
const tick = () => runBillingTick(api.h.ctx, { batchSize: 50 });

beforeAll(async () => {
  api = await createApiHarness({ start: START });
  startChargeWorker(api.h.ctx, { concurrency: 4, ratePerSecond: 100 });
  for (const [code, name, aggregation] of [
    ["api_calls", "API calls", "sum"],
    ["active_users", "Active users", "unique_count"],
  ]) {
    const meter = await api.call("POST", "/v1/meters", { body: { code, name, aggregation } });
    expect(meter.statusCode, meter.body).toBe(201);
  }
  sub = await createSubscription(api.h, { kind: "autosave", amountMinor: 10_000 });
});
afterAll(() => api?.close());

describe("usage prices on a plan", () => {
  it("sets, replaces, lists and removes a plan's usage prices", async () => {
    const url = `/v1/plans/${sub.planId}/usage-prices`;
    const first = await put(api, `${url}/api_calls`, { amount: "0.07" });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      meter: "api_calls",
      meter_name: "API calls",
      price_model: "per_unit",
      amount: { amount: "0.07", amount_minor: 7, currency: "QAR" },
      created_at: new Date(START).toISOString(),
    });
    const replaced = await put(api, `${url}/api_calls`, { price_model: "per_unit", amount: "0.05" });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({
      amount: { amount_minor: 5 },
      created_at: new Date(START).toISOString(),
    });
    const users = await put(api, `${url}/active_users`, {
      price_model: "tiered",
      tiers: [
        { up_to: 2, unit_amount: "0" },
        { up_to: null, unit_amount: "1.50" },
      ],
    });
    expect(users.statusCode, users.body).toBe(201);
    const extra = await api.call("POST", "/v1/meters", {
      body: { code: "gb", name: "GB", aggregation: "max" },
    });
    expect(extra.statusCode).toBe(201);
    expect(
      (await put(api, `${url}/gb`, { price_model: "package", amount: "1.00", package_size: 10 })).statusCode,
    ).toBe(201);
    const removed = await api.call("DELETE", `${url}/gb`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await api.call("DELETE", `${url}/gb`)).json()).toMatchObject({
      status: 404,
      code: "usage_price_not_found",
    });

    const list = await api.call("GET", url);
    expect(list.statusCode).toBe(200);
    expect(
      list
        .json()
        .data.map((price: { meter: string; price_model: string }) => [price.meter, price.price_model]),
    ).toEqual([
      ["active_users", "tiered"],
      ["api_calls", "per_unit"],
    ]);
  });

  it("names each bad field, and refuses unknown plans and meters", async () => {
    const url = `/v1/plans/${sub.planId}/usage-prices/api_calls`;
    const missing = await put(api, url, { price_model: "per_unit" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([expect.objectContaining({ field: "amount", location: "body" })]);
    const decimals = await put(api, url, { amount: "0.0501" });
    expect(decimals.statusCode).toBe(400);
    expect(decimals.json().errors).toEqual([expect.objectContaining({ field: "amount" })]);
    const tiers = await put(api, url, { price_model: "volume", tiers: [{ up_to: 5, unit_amount: "1" }] });
    expect(tiers.statusCode).toBe(400);
    expect(tiers.json().errors[0].field).toBe("tiers.0.up_to");
    expect((await put(api, `/v1/plans/${sub.planId}/usage-prices/nope`, { amount: "1" })).statusCode).toBe(
      404,
    );
    const noPlan = await put(api, "/v1/plans/00000000-0000-4000-8000-000000000000/usage-prices/api_calls", {
      amount: "1",
    });
    expect(noPlan.statusCode).toBe(404);
  });

  it("refuses a plan whose card tokens are recurring: their amount is fixed", async () => {
    const plan = await api.call("POST", "/v1/plans", {
      body: { name: "Fixed", amount: "50.00", currency: "QAR", interval: "month" },
    });
    expect(plan.json().billing_mode).toBe("recurring");
    const refused = await put(api, `/v1/plans/${plan.json().id}/usage-prices/api_calls`, { amount: "0.05" });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: "card_amount_fixed", billing_mode: "recurring" });
    expect(refused.json().detail).toContain(
      "usage varies the amount; a recurring card token is charged the fixed amount it was enrolled for; use billing_mode autosave or payment links",
    );
    expect((await api.call("GET", `/v1/plans/${plan.json().id}/usage-prices`)).json()).toEqual({ data: [] });
  });
});

describe("charging a month of usage", () => {
  it("charges January, then takes January's usage through the API, duplicates once", async () => {
    await tick();
    await statusesOfKind(api, sub.subscriptionId, "period", ["paid"]);
    at(MID_JANUARY);
    const sent = await sendUsage(api, [
      {
        id: "call-1",
        subscription_id: sub.subscriptionId,
        meter: "api_calls",
        quantity: 100,
        timestamp: "2026-01-02T08:00:00Z",
      },
      {
        id: "call-2",
        subscription_id: sub.subscriptionId,
        meter: "api_calls",
        quantity: 250,
        timestamp: "2026-01-10T08:00:00Z",
      },
      // The same id again, with another quantity: counted once, as first sent.
      {
        id: "call-2",
        subscription_id: sub.subscriptionId,
        meter: "api_calls",
        quantity: 999,
        timestamp: "2026-01-11T08:00:00Z",
      },
      { id: "user-1", subscription_id: sub.subscriptionId, meter: "active_users", distinct_value: "alice" },
      { id: "user-2", subscription_id: sub.subscriptionId, meter: "active_users", distinct_value: "bob" },
      { id: "user-3", subscription_id: sub.subscriptionId, meter: "active_users", distinct_value: "alice" },
      { id: "user-4", subscription_id: sub.subscriptionId, meter: "active_users", distinct_value: "carol" },
    ]);
    expect(sent).toEqual([
      "accepted",
      "accepted",
      "duplicate",
      "accepted",
      "accepted",
      "accepted",
      "accepted",
    ]);
    expect(
      await sendUsage(api, [
        { id: "call-1", subscription_id: sub.subscriptionId, meter: "api_calls", quantity: 5 },
      ]),
    ).toEqual(["duplicate"]);
  });

  it("previews January's usage so far beside the next period charge, and when it is charged", async () => {
    const reply = await api.call("GET", `/v1/subscriptions/${sub.subscriptionId}/upcoming`);
    expect(reply.statusCode, reply.body).toBe(200);
    const preview = reply.json();
    // The next period charge is February's plan alone; January's usage is apart.
    expect(preview).toMatchObject({
      period_start: JANUARY_END.replace("Z", ".000Z"),
      total: { amount_minor: 10_000 },
    });
    expect(preview.lines).toHaveLength(1);
    expect(preview.usage).toMatchObject({
      period_start: "2025-12-31T21:00:00.000Z",
      period_end: "2026-01-31T21:00:00.000Z",
      charge_at: "2026-02-01T21:00:00.000Z",
      // 350 calls × 0.05 = 17.50; 3 users: 2 free, 1 × 1.50
      lines: [
        { description: "Active users", quantity: 3, amount: { amount_minor: 150 } },
        { description: "API calls", quantity: 350, amount: { amount_minor: 1_750 } },
      ],
      total: { amount: "19.00", amount_minor: 1_900, currency: "QAR" },
    });
  });

  it("does not charge the usage at the period's end, and takes a late event within the grace", async () => {
    at(JANUARY_END);
    await tick();
    await statusesOfKind(api, sub.subscriptionId, "period", ["paid", "paid"]);
    expect(await chargesOfKind(api, sub.subscriptionId, "usage")).toEqual([]);

    at(LATE);
    expect(
      await sendUsage(api, [
        {
          id: "call-late",
          subscription_id: sub.subscriptionId,
          meter: "api_calls",
          quantity: 50,
          timestamp: "2026-01-31T20:30:00Z",
        },
      ]),
    ).toEqual(["accepted"]);
    at(DateTime.fromISO(GRACE_ENDS).minus({ minutes: 1 }).toISO()!);
    await tick();
    expect(await chargesOfKind(api, sub.subscriptionId, "usage")).toEqual([]);
  });

  it("charges the usage once the grace has passed, exactly as the events add up, and only once", async () => {
    at(GRACE_ENDS);
    await tick();
    const [usage] = await statusesOfKind(api, sub.subscriptionId, "usage", ["paid"]);
    // 100 + 250 + 50 calls × 0.05 = 20.00; 3 distinct users: 2 free, 1 × 1.50 = 1.50
    expect(usage).toMatchObject({
      kind: "usage",
      planId: sub.planId,
      quantity: 1,
      amountMinor: 2_150,
      currency: "QAR",
      periodStart: new Date(START),
      periodEnd: new Date(JANUARY_END),
    });
    expect(
      (await linesOf(api, usage!.id)).map((line) => [
        line.kind,
        line.description,
        line.quantity,
        line.amountMinor,
      ]),
    ).toEqual([
      ["usage", "Active users", 3, 150],
      ["usage", "API calls", 400, 2_000],
    ]);
    expect((await collections(api.h, sub.cardToken)).map((payment) => payment.amount)).toEqual([
      "100.00",
      "100.00",
      "21.50",
    ]);
    const created = await api.h.ctx.db.select().from(events).where(eq(events.chargeId, usage!.id));
    expect(created.find((event) => event.type === "charge.created")?.data).toMatchObject({
      kind: "usage",
      amount_minor: 2_150,
      lines: [
        { description: "Active users", quantity: 3, amount_minor: 150 },
        { description: "API calls", quantity: 400, amount_minor: 2_000 },
      ],
    });

    await tick();
    at(DateTime.fromISO(GRACE_ENDS).plus({ hours: 3 }).toISO()!);
    await tick();
    expect(await chargesOfKind(api, sub.subscriptionId, "usage")).toHaveLength(1);
    expect(await collections(api.h, sub.cardToken)).toHaveLength(3);
  });

  it("charges a period without usage at zero, paid without the gateway, as the mark it was billed", async () => {
    at("2026-02-28T21:00:00Z");
    await tick();
    await statusesOfKind(api, sub.subscriptionId, "period", ["paid", "paid", "paid"]);
    at("2026-03-01T21:00:00Z");
    await tick();
    const [, february] = await statusesOfKind(api, sub.subscriptionId, "usage", ["paid", "paid"]);
    expect(february).toMatchObject({ amountMinor: 0, attemptCount: 0, periodStart: new Date(JANUARY_END) });
    expect((await linesOf(api, february!.id)).map((line) => [line.quantity, line.amountMinor])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(await collections(api.h, sub.cardToken)).toHaveLength(4);
  });
});
