import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestUsage, sweepUsage } from "../../../src/usage/index.js";
import { type ApiHarness, createApiHarness } from "../api/support.js";
import { seedUsageSubscription } from "./support.js";

/** The month partitions of usage_events, and the upkeep of dedupe keys. Clock: 2026-05-31T20:00:00Z. */

let api: ApiHarness;

const partitions = async () =>
  (
    await api.h.database.sql<{ name: string }[]>`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'usage_events'::regclass order by c.relname`
  ).map((row) => row.name);

beforeAll(async () => {
  api = await createApiHarness({ start: "2026-05-31T20:00:00Z" });
  await api.call("POST", "/v1/meters", { body: { code: "calls", name: "Calls", aggregation: "sum" } });
});
afterAll(() => api?.close());

describe("usage partitions", () => {
  it("the sweep makes the previous month to three months ahead; running it again makes none", async () => {
    const before = await partitions();
    const { partitionsCreated } = await sweepUsage(api.h.ctx);
    const after = await partitions();
    for (const month of ["2026_04", "2026_05", "2026_06", "2026_07", "2026_08"]) {
      expect(after).toContain(`usage_events_${month}`);
    }
    expect(partitionsCreated).toBe(after.length - before.length);
    expect((await sweepUsage(api.h.ctx)).partitionsCreated).toBe(0);
  });

  it("ingestion makes a month no sweep foresaw before writing into it", async () => {
    const { subscriptionId } = await seedUsageSubscription(api.h.ctx.db, {
      period: { start: "2025-06-01T00:00:00Z", end: "2026-06-01T00:00:00Z" },
    });
    expect(await partitions()).not.toContain("usage_events_2025_07");
    const [result] = await ingestUsage(api.h.ctx, [
      {
        id: "yearly-1",
        subscription_id: subscriptionId,
        meter: "calls",
        quantity: 3,
        timestamp: "2025-07-04T00:00:00Z",
      },
    ]);
    expect(result).toEqual({ id: "yearly-1", status: "accepted" });
    expect(await partitions()).toContain("usage_events_2025_07");

    // Dropped behind this process's back: the insert finds no partition, makes it, and goes again.
    await api.h.database.sql`drop table usage_events_2025_07`;
    const [again] = await ingestUsage(api.h.ctx, [
      { id: "yearly-2", subscription_id: subscriptionId, meter: "calls", timestamp: "2025-07-05T00:00:00Z" },
    ]);
    expect(again).toEqual({ id: "yearly-2", status: "accepted" });
    expect(await partitions()).toContain("usage_events_2025_07");
  });
});

describe("dedupe keys", () => {
  it("are pruned once their period is closed, and a retry of such an event is refused, not counted again", async () => {
    const { subscriptionId } = await seedUsageSubscription(api.h.ctx.db, {
      period: { start: "2026-05-01T00:00:00Z", end: "2026-06-01T00:00:00Z" },
      previousStart: "2026-04-01T00:00:00Z",
    });
    const events = [
      { id: "k-1", subscription_id: subscriptionId, meter: "calls", timestamp: "2026-05-10T00:00:00Z" },
      { id: "k-2", subscription_id: subscriptionId, meter: "calls", timestamp: "2026-05-31T19:00:00Z" },
    ];
    expect((await ingestUsage(api.h.ctx, events)).map((r) => r.status)).toEqual(["accepted", "accepted"]);
    // The period rolls over (as the scheduler does); June 1st is within the grace: nothing goes.
    await api.h.database.sql`
      update subscriptions set current_period_start = '2026-06-01T00:00:00Z', current_period_end = '2026-07-01T00:00:00Z',
        next_billing_at = '2026-07-01T00:00:00Z' where id = ${subscriptionId}`;
    await api.h.database.sql`
      insert into charges (subscription_id, plan_id, period_start, period_end, amount_minor, currency)
      select id, plan_id, '2026-05-01T00:00:00Z', '2026-06-01T00:00:00Z', 1000, 'QAR' from subscriptions where id = ${subscriptionId}`;
    await api.h.clock.set("2026-06-01T12:00:00Z");
    expect((await sweepUsage(api.h.ctx)).keysPruned).toBe(0);
    expect((await ingestUsage(api.h.ctx, [events[1]!]))[0]!.status).toBe("duplicate");

    await api.h.clock.set("2026-06-02T00:00:00Z");
    expect((await sweepUsage(api.h.ctx)).keysPruned).toBe(2);
    const [retry] = await ingestUsage(api.h.ctx, [events[1]!]);
    expect(retry).toMatchObject({ status: "refused", code: "period_closed" });
    const [row] = await api.h.database.sql<{ n: number }[]>`
      select count(*)::int as n from usage_events where subscription_id = ${subscriptionId}`;
    expect(row!.n).toBe(2);
  });
});
