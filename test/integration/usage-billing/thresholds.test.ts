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
 * Progressive billing through the simulator: an autosave plan at 100.00 a month (Qatar, from
 * 2026-01-01, i.e. 2025-12-31T21:00Z) prices api_calls (sum) in graduated tiers — 1–1,000 free,
 * 1,001–5,000 at 0.02, then 0.01 plus 5.00 once — and peak_storage (max) by volume, 2.00 a GB up
 * to 10 and 1.00 a GB past it. Its spending threshold is 30.00: usage not yet billed is charged as
 * soon as it reaches that, and the close bills the rest. Volume prices can fall as usage grows,
 * so peak_storage waits for the close.
 */
const START = "2025-12-31T21:00:00Z";
const GRACE_ENDS = "2026-02-01T21:00:00Z";

let api: ApiHarness;
let sub: CardSubscription;

const at = (iso: string) => api.h.clock.set(DateTime.fromISO(iso));
const tick = () => runBillingTick(api.h.ctx, { batchSize: 50 });
let sent = 0;
const calls = (quantity: number) =>
  sendUsage(api, [
    { id: `calls-${++sent}`, subscription_id: sub.subscriptionId, meter: "api_calls", quantity },
  ]);
const usageCharges = async () =>
  (await chargesOfKind(api, sub.subscriptionId, "usage")).map((c) => [c.usagePart, c.amountMinor, c.status]);

beforeAll(async () => {
  api = await createApiHarness({ start: START });
  startChargeWorker(api.h.ctx, { concurrency: 4, ratePerSecond: 100 });
  for (const [code, name, aggregation] of [
    ["api_calls", "API calls", "sum"],
    ["peak_storage", "Peak storage", "max"],
  ]) {
    const meter = await api.call("POST", "/v1/meters", { body: { code, name, aggregation } });
    expect(meter.statusCode, meter.body).toBe(201);
  }
  sub = await createSubscription(api.h, { kind: "autosave", amountMinor: 10_000 });
  const prices = `/v1/plans/${sub.planId}/usage-prices`;
  const tiers = (...rows: [number | null, string, string][]) =>
    rows.map(([up_to, unit_amount, flat_amount]) => ({ up_to, unit_amount, flat_amount }));
  for (const [meter, body] of [
    [
      "api_calls",
      {
        price_model: "tiered",
        tiers: tiers([1_000, "0", "0"], [5_000, "0.02", "0"], [null, "0.01", "5.00"]),
      },
    ],
    ["peak_storage", { price_model: "volume", tiers: tiers([10, "2.00", "0"], [null, "1.00", "0"]) }],
  ] as const) {
    const reply = await put(api, `${prices}/${meter}`, body);
    expect(reply.statusCode, reply.body).toBe(201);
  }
});
afterAll(() => api?.close());

describe("a plan's spending threshold", () => {
  it("is set in the plan's currency, shown on the plan, and refused with the field named", async () => {
    const url = `/v1/plans/${sub.planId}/usage-threshold`;
    for (const [body, message] of [
      [{ amount: "0" }, "amount must be above zero"],
      [{ amount: "1.234" }, "more than 2 decimal place(s)"],
      [{}, "amount"],
    ] as const) {
      const refused = await put(api, url, body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.body).toContain(message);
    }
    const set = await put(api, url, { amount: "30.00" });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({
      plan_id: sub.planId,
      usage_threshold: { amount: "30.00", amount_minor: 3_000, currency: "QAR" },
    });
    const plan = await api.call("GET", `/v1/plans?include_archived=true`);
    expect(plan.json().data.find((p: { id: string }) => p.id === sub.planId)).toMatchObject({
      usage_threshold: { amount_minor: 3_000 },
    });
    const recorded = await api.h.ctx.db
      .select()
      .from(events)
      .where(eq(events.type, "plan.usage_threshold_set"));
    expect(recorded.map((event) => event.data)).toEqual([
      { plan_id: sub.planId, threshold_minor: 3_000, currency: "QAR" },
    ]);
  });

  it("refuses a plan whose card tokens are recurring", async () => {
    const recurring = await createSubscription(api.h, { kind: "recurring", amountMinor: 5_000 });
    const reply = await put(api, `/v1/plans/${recurring.planId}/usage-threshold`, { amount: "30.00" });
    expect(reply.statusCode, reply.body).toBe(422);
    expect(reply.json()).toMatchObject({ code: "card_amount_fixed" });
  });
});

describe("billing January's usage in parts", () => {
  it("charges nothing early while the usage not billed stays under the threshold", async () => {
    await tick();
    await statusesOfKind(api, sub.subscriptionId, "period", ["paid"]);
    at("2026-01-05T10:00:00Z");
    expect(await calls(1_200)).toEqual(["accepted"]);
    await tick();
    // 200 calls past the free 1,000 at 0.02 = 4.00, under 30.00
    expect(await usageCharges()).toEqual([]);
  });

  it("charges a part once the usage not billed reaches the threshold, once however many ticks run", async () => {
    at("2026-01-10T10:00:00Z");
    await calls(1_800);
    await Promise.all([tick(), tick()]);
    await statusesOfKind(api, sub.subscriptionId, "usage", ["paid"]);
    // 3,000 calls: 2,000 × 0.02 = 40.00, all of it not billed before
    expect(await usageCharges()).toEqual([[1, 4_000, "paid"]]);
    const [part] = await chargesOfKind(api, sub.subscriptionId, "usage");
    expect((await linesOf(api, part!.id)).map((l) => [l.description, l.quantity, l.amountMinor])).toEqual([
      ["API calls", 3_000, 4_000],
    ]);
    await tick();
    expect(await usageCharges()).toHaveLength(1);
    const created = await api.h.ctx.db.select().from(events).where(eq(events.chargeId, part!.id));
    expect(created.find((event) => event.type === "charge.created")?.data).toMatchObject({
      kind: "usage",
      usage_part: 1,
      amount_minor: 4_000,
    });
  });

  it("charges the next part from what the first did not bill", async () => {
    at("2026-01-20T10:00:00Z");
    await calls(3_000);
    await sendUsage(api, [
      { id: "storage-1", subscription_id: sub.subscriptionId, meter: "peak_storage", quantity: 12 },
    ]);
    await tick();
    await statusesOfKind(api, sub.subscriptionId, "usage", ["paid", "paid"]);
    // 6,000 calls cost 4,000 × 0.02 + 1,000 × 0.01 + 5.00 = 95.00, less the 40.00 billed; storage waits
    expect(await usageCharges()).toEqual([
      [1, 4_000, "paid"],
      [2, 5_500, "paid"],
    ]);
    const [, part] = await chargesOfKind(api, sub.subscriptionId, "usage");
    expect((await linesOf(api, part!.id)).map((l) => [l.description, l.quantity, l.amountMinor])).toEqual([
      ["API calls", 3_000, 5_500],
    ]);
  });

  it("previews the close as what the parts left, and charges exactly that after the grace", async () => {
    at("2026-01-25T10:00:00Z");
    await calls(500);
    await tick();
    // 6,500 calls cost 100.00, 95.00 billed: 5.00 is under the threshold
    expect(await usageCharges()).toHaveLength(2);
    const preview = (await api.call("GET", `/v1/subscriptions/${sub.subscriptionId}/upcoming`)).json();
    expect(preview.usage).toMatchObject({
      lines: [
        { description: "API calls", quantity: 500, amount: { amount_minor: 500 } },
        // 12 GB at the volume tier past 10: 12 × 1.00
        { description: "Peak storage", quantity: 12, amount: { amount_minor: 1_200 } },
      ],
      total: { amount_minor: 1_700 },
    });

    at(GRACE_ENDS);
    await tick();
    await statusesOfKind(api, sub.subscriptionId, "usage", ["paid", "paid", "paid"]);
    expect(await usageCharges()).toEqual([
      [1, 4_000, "paid"],
      [2, 5_500, "paid"],
      [null, 1_700, "paid"],
    ]);
    // The parts and the close add up to the month's usage priced whole: 100.00 + 12.00.
    const payments = (await collections(api.h, sub.cardToken)).map((payment) => payment.amount);
    expect(payments.filter((amount) => amount !== "100.00")).toEqual(["40.00", "55.00", "17.00"]);
  });
});
