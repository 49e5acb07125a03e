import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiHarness, createApiHarness } from "../api/support.js";
import { seedUsageSubscription } from "./support.js";

/**
 * POST /v1/usage on a real database. The billing clock starts at 2026-02-01T10:00:00Z; the
 * subscription's current period is February, the previous one January, USAGE_GRACE_HOURS 24, so
 * January takes late events until 2026-02-02T00:00:00Z.
 */

let api: ApiHarness;
let sub: string;
let customer: string;

/** A timestamptz column as UTC ISO text, whatever the session's time zone. */
const utc = (column: string) =>
  api.h.database.sql.unsafe(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`);

const countEvents = async (subscriptionId: string) => {
  const [row] = await api.h.database.sql<{ n: number }[]>`
    select count(*)::int as n from usage_events where subscription_id = ${subscriptionId}`;
  return row!.n;
};

beforeAll(async () => {
  api = await createApiHarness({ start: "2026-02-01T10:00:00Z" });
  for (const [code, aggregation] of [
    ["api_calls", "sum"],
    ["logins", "unique_count"],
  ]) {
    const created = await api.call("POST", "/v1/meters", { body: { code, name: code, aggregation } });
    expect(created.statusCode).toBe(201);
  }
  ({ subscriptionId: sub, customerId: customer } = await seedUsageSubscription(api.h.ctx.db, {
    period: { start: "2026-02-01T00:00:00Z", end: "2026-03-01T00:00:00Z" },
    previousStart: "2026-01-01T00:00:00Z",
  }));
});
afterAll(() => api?.close());

describe("POST /v1/usage", () => {
  it("accepts one event, with quantity 1 and the billing clock's now by default", async () => {
    const response = await api.call("POST", "/v1/usage", {
      body: { id: "one-1", subscription_id: sub, meter: "api_calls" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: "one-1", status: "accepted" });
    const [row] = await api.h.database.sql<{ quantity: string; occurred_at: string; received_at: string }[]>`
      select quantity::text, ${utc("occurred_at")} as occurred_at, ${utc("received_at")} as received_at
      from usage_events where event_id = 'one-1'`;
    expect(row).toEqual({
      quantity: "1",
      occurred_at: "2026-02-01T10:00:00Z",
      received_at: "2026-02-01T10:00:00Z",
    });
  });

  it("accepts a batch in one request and answers each event in order", async () => {
    const events = Array.from({ length: 5 }, (_, i) => ({
      id: `batch-${i}`,
      subscription_id: sub,
      meter: "api_calls",
      quantity: 10 + i,
      timestamp: `2026-02-01T0${i}:30:00+00:00`,
    }));
    const response = await api.call("POST", "/v1/usage", { body: { events } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      accepted: 5,
      duplicates: 0,
      refused: 0,
      results: events.map((e) => ({ id: e.id, status: "accepted" })),
    });
    const [sum] = await api.h.database.sql<{ total: string }[]>`
      select sum(quantity)::text as total from usage_events where event_id like 'batch-%'`;
    expect(sum!.total).toBe("60");
  });

  it("ignores a duplicate, also when its timestamp or quantity differ, and within one batch", async () => {
    const first = {
      id: "dup-1",
      subscription_id: sub,
      meter: "api_calls",
      quantity: 7,
      timestamp: "2026-02-01T08:00:00Z",
    };
    expect((await api.call("POST", "/v1/usage", { body: first })).json()).toEqual({
      id: "dup-1",
      status: "accepted",
    });
    expect((await api.call("POST", "/v1/usage", { body: first })).json()).toEqual({
      id: "dup-1",
      status: "duplicate",
    });
    const moved = { ...first, quantity: 9, timestamp: "2026-02-01T09:00:00Z" };
    expect((await api.call("POST", "/v1/usage", { body: moved })).json()).toEqual({
      id: "dup-1",
      status: "duplicate",
    });
    const batch = await api.call("POST", "/v1/usage", {
      body: { events: [{ ...first, id: "dup-2" }, { ...first, id: "dup-2", quantity: 3 }, first] },
    });
    expect(batch.json()).toMatchObject({
      accepted: 1,
      duplicates: 2,
      results: [
        { id: "dup-2", status: "accepted" },
        { id: "dup-2", status: "duplicate" },
        { id: "dup-1", status: "duplicate" },
      ],
    });
    const rows = await api.h.database.sql<{ event_id: string; quantity: string; occurred_at: string }[]>`
      select event_id, quantity::text, ${utc("occurred_at")} as occurred_at
      from usage_events where event_id like 'dup-%' and subscription_id = ${sub} order by event_id`;
    expect(rows).toEqual([
      { event_id: "dup-1", quantity: "7", occurred_at: "2026-02-01T08:00:00Z" },
      { event_id: "dup-2", quantity: "7", occurred_at: "2026-02-01T08:00:00Z" },
    ]);
  });

  it("records each event once when two requests carry the same events at the same moment", async () => {
    const events = Array.from({ length: 200 }, (_, i) => ({
      id: `race-${i}`,
      subscription_id: sub,
      meter: "api_calls",
      quantity: 1,
    }));
    const reversed = [...events].reverse();
    const answers = await Promise.all([
      api.call("POST", "/v1/usage", { body: { events } }),
      api.call("POST", "/v1/usage", { body: { events: reversed } }),
    ]);
    const [x, y] = answers.map((answer) => answer.json());
    expect(x.accepted + y.accepted).toBe(200);
    expect(x.duplicates + y.duplicates).toBe(200);
    const [row] = await api.h.database.sql<{ n: number }[]>`
      select count(*)::int as n from usage_events where event_id like 'race-%'`;
    expect(row!.n).toBe(200);
  });

  it("treats the same event id of another subscription as another event", async () => {
    const other = await seedUsageSubscription(api.h.ctx.db, {
      period: { start: "2026-02-01T00:00:00Z", end: "2026-03-01T00:00:00Z" },
    });
    const response = await api.call("POST", "/v1/usage", {
      body: { id: "dup-1", subscription_id: other.subscriptionId, meter: "api_calls" },
    });
    expect(response.json()).toEqual({ id: "dup-1", status: "accepted" });
  });

  it("lands a late event within the grace in the previous period, and refuses it once the period is closed", async () => {
    const late = {
      id: "late-1",
      subscription_id: sub,
      meter: "api_calls",
      quantity: 5,
      timestamp: "2026-01-31T23:59:00Z",
    };
    expect((await api.call("POST", "/v1/usage", { body: late })).json()).toEqual({
      id: "late-1",
      status: "accepted",
    });
    const [row] = await api.h.database.sql<{ partition: string }[]>`
      select tableoid::regclass::text as partition from usage_events where event_id = 'late-1'`;
    expect(row!.partition).toBe("usage_events_2026_01");

    await api.h.clock.set("2026-02-02T00:00:00Z");
    try {
      const closed = await api.call("POST", "/v1/usage", { body: { ...late, id: "late-2" } });
      expect(closed.statusCode).toBe(422);
      expect(closed.json()).toMatchObject({
        code: "period_closed",
        detail:
          "the period 2026-01-01T00:00:00.000Z – 2026-02-01T00:00:00.000Z is closed: late usage for it was taken until 2026-02-02T00:00:00.000Z (USAGE_GRACE_HOURS=24)",
        event_id: "late-2",
        errors: [{ field: "timestamp", location: "body", message: expect.stringContaining("is closed") }],
      });
      const older = await api.call("POST", "/v1/usage", {
        body: { ...late, id: "late-3", timestamp: "2025-12-31T12:00:00Z" },
      });
      expect(older.json()).toMatchObject({
        code: "period_closed",
        detail:
          "timestamp 2025-12-31T12:00:00.000Z is before the previous period (which started 2026-01-01T00:00:00.000Z); its period is closed to usage",
      });
    } finally {
      api.h.clock.set("2026-02-01T10:00:00Z");
    }
  });

  it("refuses a timestamp more than 5 minutes ahead, and takes one within the skew", async () => {
    const ahead = await api.call("POST", "/v1/usage", {
      body: { id: "future-1", subscription_id: sub, meter: "api_calls", timestamp: "2026-02-01T10:05:01Z" },
    });
    expect(ahead.statusCode).toBe(422);
    expect(ahead.json()).toMatchObject({
      code: "timestamp_in_future",
      detail:
        "timestamp 2026-02-01T10:05:01.000Z is more than 5 minutes after the billing clock's now (2026-02-01T10:00:00.000Z)",
    });
    const skewed = await api.call("POST", "/v1/usage", {
      body: {
        id: "future-2",
        subscription_id: sub,
        meter: "api_calls",
        timestamp: "2026-02-01T13:04:00+03:00",
      },
    });
    expect(skewed.json()).toEqual({ id: "future-2", status: "accepted" });
  });

  it("refuses an unknown or archived meter naming it, and a unique_count event without its value", async () => {
    await api.call("POST", "/v1/meters", { body: { code: "old_meter", name: "Old", aggregation: "count" } });
    expect((await api.call("POST", "/v1/meters/old_meter/archive")).statusCode).toBe(200);
    const response = await api.call("POST", "/v1/usage", {
      body: {
        events: [
          { id: "m-1", subscription_id: sub, meter: "api_callz" },
          { id: "m-2", subscription_id: sub, meter: "old_meter" },
          { id: "m-3", subscription_id: sub, meter: "logins" },
          { id: "m-4", subscription_id: sub, meter: "logins", distinct_value: "user-1" },
        ],
      },
    });
    expect(response.json()).toEqual({
      accepted: 1,
      duplicates: 0,
      refused: 3,
      results: [
        {
          id: "m-1",
          status: "refused",
          code: "unknown_meter",
          field: "events.0.meter",
          reason: "no meter with code api_callz",
        },
        {
          id: "m-2",
          status: "refused",
          code: "meter_archived",
          field: "events.1.meter",
          reason: "meter old_meter is archived; it takes no new events",
        },
        {
          id: "m-3",
          status: "refused",
          code: "distinct_value_required",
          field: "events.2.distinct_value",
          reason: "meter logins counts distinct values: send distinct_value",
        },
        { id: "m-4", status: "accepted" },
      ],
    });
  });

  it("uses a customer's single live subscription, and refuses a customer with several", async () => {
    const one = await api.call("POST", "/v1/usage", {
      body: { id: "cust-1", customer_id: customer, meter: "api_calls", quantity: 2 },
    });
    expect(one.json()).toEqual({ id: "cust-1", status: "accepted" });
    const [row] = await api.h.database.sql<{ subscription_id: string }[]>`
      select subscription_id from usage_events where event_id = 'cust-1'`;
    expect(row!.subscription_id).toBe(sub);

    const twice = await seedUsageSubscription(api.h.ctx.db, {
      period: { start: "2026-02-01T00:00:00Z", end: "2026-03-01T00:00:00Z" },
    });
    await seedUsageSubscription(api.h.ctx.db, {
      period: { start: "2026-02-01T00:00:00Z", end: "2026-03-01T00:00:00Z" },
      customerId: twice.customerId,
    });
    const ambiguous = await api.call("POST", "/v1/usage", {
      body: { id: "cust-2", customer_id: twice.customerId, meter: "api_calls" },
    });
    expect(ambiguous.statusCode).toBe(422);
    expect(ambiguous.json()).toMatchObject({
      code: "ambiguous_customer",
      detail: expect.stringMatching(
        /^customer \S+ has 2 live subscriptions \(.+\); send subscription_id instead$/,
      ),
      errors: [expect.objectContaining({ field: "customer_id" })],
    });
  });

  it("refuses events of a subscription that is not live, has no period yet, or does not exist", async () => {
    const canceled = await seedUsageSubscription(api.h.ctx.db, {
      period: { start: "2026-02-01T00:00:00Z", end: "2026-03-01T00:00:00Z" },
      status: "canceled",
    });
    const trialing = await seedUsageSubscription(api.h.ctx.db, { period: null, status: "trialing" });
    const missing = "00000000-0000-4000-8000-000000000000";
    const response = await api.call("POST", "/v1/usage", {
      body: {
        events: [canceled.subscriptionId, trialing.subscriptionId, missing].map((id, i) => ({
          id: `live-${i}`,
          subscription_id: id,
          meter: "api_calls",
        })),
      },
    });
    expect(response.json().results).toEqual([
      expect.objectContaining({
        code: "subscription_not_live",
        field: "events.0.subscription_id",
        reason: "the subscription is canceled; usage is taken only while it is trialing, active or past_due",
      }),
      expect.objectContaining({
        code: "no_open_period",
        field: "events.1.subscription_id",
        reason: "the subscription has no billing period yet; usage is taken once its first period starts",
      }),
      expect.objectContaining({ code: "subscription_not_found", field: "events.2.subscription_id" }),
    ]);
  });

  it("names each bad field of a batch by its place, and writes nothing", async () => {
    const before = await countEvents(sub);
    const response = await api.call("POST", "/v1/usage", {
      body: {
        events: [
          { id: "v-0", subscription_id: sub, meter: "api_calls" },
          { id: "v-1", subscription_id: sub, meter: "API Calls" },
          { id: "v-2", meter: "api_calls" },
          { id: "v-3", subscription_id: sub, meter: "api_calls", quantity: -1 },
          { id: "v-4", subscription_id: sub, meter: "api_calls", quantity: 1.5, timestamp: "yesterday" },
        ],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.map((e: { field: string }) => e.field)).toEqual([
      "events.1.meter",
      "events.2.subscription_id",
      "events.3.quantity",
      "events.4.quantity",
      "events.4.timestamp",
    ]);
    const single = await api.call("POST", "/v1/usage", {
      body: { id: "v-5", meter: "api_calls", quantity: "3" },
    });
    expect(single.json().errors.map((e: { field: string }) => e.field)).toEqual(["quantity"]);
    const tooMany = await api.call("POST", "/v1/usage", {
      body: {
        events: Array.from({ length: 1001 }, (_, i) => ({
          id: `x-${i}`,
          subscription_id: sub,
          meter: "api_calls",
        })),
      },
    });
    expect(tooMany.json().errors).toEqual([
      { field: "events", location: "body", message: "events must hold at most 1000 events; split the batch" },
    ]);
    expect(await countEvents(sub)).toBe(before);
  });
});
