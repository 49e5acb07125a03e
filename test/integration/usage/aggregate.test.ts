import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureUsagePartitions, ingestUsage, usageForPeriods } from "../../../src/usage/index.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";
import { seedUsageSubscription } from "./support.js";

/**
 * Usage per period over a literal dataset, written straight into usage_events so that events can
 * sit exactly on the periods' bounds. Billing clock: 2026-03-10T12:00:00Z.
 */

let api: ApiHarness;
const meter: Record<string, string> = {};
let a: string;
let b: string;
let c: string;

type Row = [
  subscription: string,
  code: string,
  quantity: number,
  at: string,
  distinct?: string,
  received?: string,
];

async function insert(rows: Row[]): Promise<void> {
  let n = 0;
  for (const [subscription, code, quantity, at, distinct, received] of rows) {
    n += 1;
    await api.h.database.sql`
      insert into usage_events (subscription_id, meter_id, event_id, quantity, distinct_value, occurred_at, received_at)
      values (${subscription}, ${meter[code]!}, ${`e-${n}`}, ${quantity}, ${distinct ?? null}, ${at}, ${received ?? at})`;
  }
}

beforeAll(async () => {
  api = await createApiHarness({ start: "2026-03-10T12:00:00Z" });
  for (const [code, aggregation] of [
    ["calls", "sum"],
    ["requests", "count"],
    ["peak", "max"],
    ["users", "unique_count"],
    ["seats", "last"],
  ] as const) {
    const created = await api.call("POST", "/v1/meters", { body: { code, name: code, aggregation } });
    meter[code] = created.json().id;
  }
  const march = { start: "2026-03-01T00:00:00Z", end: "2026-04-01T00:00:00Z" };
  ({ subscriptionId: a } = await seedUsageSubscription(api.h.ctx.db, { period: march }));
  ({ subscriptionId: b } = await seedUsageSubscription(api.h.ctx.db, {
    period: { start: "2026-02-15T00:00:00Z", end: "2026-03-15T00:00:00Z" },
  }));
  ({ subscriptionId: c } = await seedUsageSubscription(api.h.ctx.db, { period: march }));
  await ensureUsagePartitions(api.h.ctx.db.$client, new Date("2026-02-01T00:00:00Z"), 3);
  await insert([
    [a, "calls", 5, "2026-03-01T00:00:00Z"], // on the start: in
    [a, "calls", 7, "2026-03-05T10:00:00Z"],
    [a, "calls", 11, "2026-03-31T23:59:59.999Z"],
    [a, "calls", 100, "2026-04-01T00:00:00Z"], // on the end: out
    [a, "calls", 1000, "2026-02-28T23:59:00Z"], // before: out
    [a, "requests", 0, "2026-03-02T00:00:00Z"],
    [a, "requests", 5, "2026-03-03T00:00:00Z"],
    [a, "requests", 9, "2026-03-04T00:00:00Z"],
    [a, "requests", 1, "2026-02-27T00:00:00Z"], // out
    [a, "peak", 4, "2026-03-02T00:00:00Z"],
    [a, "peak", 12, "2026-03-03T00:00:00Z"],
    [a, "peak", 7, "2026-03-04T00:00:00Z"],
    [a, "peak", 50, "2026-04-02T00:00:00Z"], // out
    [a, "users", 1, "2026-03-02T00:00:00Z", "u1"],
    [a, "users", 1, "2026-03-03T00:00:00Z", "u2"],
    [a, "users", 1, "2026-03-04T00:00:00Z", "u1"],
    [a, "users", 1, "2026-03-05T00:00:00Z", "u3"],
    [a, "users", 1, "2026-02-05T00:00:00Z", "u4"], // out
    [a, "seats", 10, "2026-03-02T00:00:00Z"],
    [a, "seats", 12, "2026-03-09T00:00:00Z", undefined, "2026-03-09T00:00:00Z"],
    [a, "seats", 8, "2026-03-09T00:00:00Z", undefined, "2026-03-09T00:00:05Z"], // same time, received later: last
    [a, "seats", 99, "2026-04-02T00:00:00Z"], // out
    [b, "calls", 2, "2026-02-20T00:00:00Z"],
    [b, "calls", 3, "2026-03-14T23:00:00Z"],
    [b, "calls", 4, "2026-03-15T00:00:00Z"], // on b's end: out
    [b, "seats", 3, "2026-02-16T00:00:00Z"],
    [b, "seats", 6, "2026-02-16T00:00:00Z"], // same occurred and received: the greater event id (e-27) wins
  ]);
});
afterAll(() => api?.close());

describe("usageForPeriods", () => {
  it("adds up every aggregation kind over each subscription's own period, in one call", async () => {
    const usage = await usageForPeriods(api.h.ctx.db, [
      { subscriptionId: a, start: new Date("2026-03-01T00:00:00Z"), end: new Date("2026-04-01T00:00:00Z") },
      { subscriptionId: b, start: new Date("2026-02-15T00:00:00Z"), end: new Date("2026-03-15T00:00:00Z") },
      { subscriptionId: c, start: new Date("2026-03-01T00:00:00Z"), end: new Date("2026-04-01T00:00:00Z") },
    ]);
    expect(Object.fromEntries([...usage].map(([id, meters]) => [id, Object.fromEntries(meters)]))).toEqual({
      [a]: { calls: 23, requests: 3, peak: 12, users: 3, seats: 8 },
      [b]: { calls: 5, seats: 6 },
      [c]: {},
    });
  });

  it("reads another period of the same events", async () => {
    const usage = await usageForPeriods(api.h.ctx.db, [
      { subscriptionId: a, start: new Date("2026-02-01T00:00:00Z"), end: new Date("2026-03-01T00:00:00Z") },
    ]);
    expect(Object.fromEntries(usage.get(a)!)).toEqual({ calls: 1000, requests: 1, users: 1 });
  });

  it("refuses a sum past 2^53-1 rather than rounding it, and a subscription asked twice", async () => {
    const { subscriptionId: big } = await seedUsageSubscription(api.h.ctx.db, {
      period: { start: "2026-03-01T00:00:00Z", end: "2026-04-01T00:00:00Z" },
    });
    await insert([
      [big, "calls", Number.MAX_SAFE_INTEGER, "2026-03-02T00:00:00Z"],
      [big, "calls", 1, "2026-03-03T00:00:00Z"],
    ]);
    const period = {
      subscriptionId: big,
      start: new Date("2026-03-01T00:00:00Z"),
      end: new Date("2026-04-01T00:00:00Z"),
    };
    await expect(usageForPeriods(api.h.ctx.db, [period])).rejects.toThrow(
      `usage of meter calls for subscription ${big} is 9007199254740992, past 2^53-1`,
    );
    await expect(usageForPeriods(api.h.ctx.db, [period, period])).rejects.toThrow(/asked about twice/);
  });
});

describe("GET /v1/subscriptions/:id/usage", () => {
  it("answers the current period's usage per meter", async () => {
    const response = await api.call("GET", `/v1/subscriptions/${a}/usage`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      subscription_id: a,
      period_start: "2026-03-01T00:00:00.000Z",
      period_end: "2026-04-01T00:00:00.000Z",
      meters: [
        { meter: "calls", aggregation: "sum", value: 23 },
        { meter: "peak", aggregation: "max", value: 12 },
        { meter: "requests", aggregation: "count", value: 3 },
        { meter: "seats", aggregation: "last", value: 8 },
        { meter: "users", aggregation: "unique_count", value: 3 },
      ],
    });
    const missing = await api.call("GET", "/v1/subscriptions/00000000-0000-4000-8000-000000000000/usage");
    expect(missing.statusCode).toBe(404);
  });

  it("counts what ingestion accepts", async () => {
    const results = await ingestUsage(api.h.ctx, [
      { id: "i-1", subscription_id: c, meter: "calls", quantity: 40 },
      { id: "i-2", subscription_id: c, meter: "calls", quantity: 2, timestamp: "2026-03-10T11:00:00Z" },
      { id: "i-2", subscription_id: c, meter: "calls", quantity: 2, timestamp: "2026-03-10T11:30:00Z" },
    ]);
    expect(results.map((r) => r.status)).toEqual(["accepted", "accepted", "duplicate"]);
    const response = await api.call("GET", `/v1/subscriptions/${c}/usage`);
    expect(response.json().meters).toEqual([{ meter: "calls", aggregation: "sum", value: 42 }]);
  });
});
