import { describe, expect, it } from "vitest";
import { judgeEvents } from "../../../src/usage/judge-events.js";
import type { LoadedSubscription } from "../../../src/usage/load-subscriptions.js";
import type { CachedMeter } from "../../../src/usage/meter-cache.js";

const SUB = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";
const CUSTOMER = "33333333-3333-4333-8333-333333333333";

const live = (id: string): LoadedSubscription => ({
  id,
  customerId: CUSTOMER,
  status: "active",
  currentStart: Date.parse("2026-02-01T00:00:00Z"),
  currentEnd: Date.parse("2026-03-01T00:00:00Z"),
  previousStart: null,
});

const meters = new Map<string, CachedMeter>([
  ["calls", { id: "m-calls", code: "calls", aggregation: "sum", archived: false }],
]);
const now = Date.parse("2026-02-10T00:00:00Z");

describe("judgeEvents", () => {
  it("makes candidates of valid events, with the default quantity and now, and marks repeats within the request", () => {
    const subscriptions = { byId: new Map([[SUB, live(SUB)]]), liveByCustomer: new Map() };
    const { verdicts, candidates } = judgeEvents(
      [
        { id: "a", subscription_id: SUB.toUpperCase(), meter: "calls" },
        { id: "a", subscription_id: SUB, meter: "calls", quantity: 5 },
        {
          id: "b",
          subscription_id: SUB,
          meter: "calls",
          quantity: 0,
          timestamp: "2026-02-05T03:00:00+03:00",
        },
      ],
      meters,
      subscriptions,
      now,
      24,
    );
    expect(verdicts).toEqual([{ status: "accepted" }, { status: "duplicate" }, { status: "accepted" }]);
    expect(candidates).toEqual([
      {
        index: 0,
        subscriptionId: SUB,
        meterId: "m-calls",
        eventId: "a",
        quantity: 1,
        distinctValue: null,
        occurredAt: now,
      },
      {
        index: 2,
        subscriptionId: SUB,
        meterId: "m-calls",
        eventId: "b",
        quantity: 0,
        distinctValue: null,
        occurredAt: Date.parse("2026-02-05T00:00:00Z"),
      },
    ]);
  });

  it("refuses a customer with no or several live subscriptions, naming customer_id", () => {
    const none = judgeEvents(
      [{ id: "x", customer_id: CUSTOMER, meter: "calls" }],
      meters,
      { byId: new Map(), liveByCustomer: new Map() },
      now,
      24,
    );
    expect(none.verdicts).toEqual([
      {
        status: "refused",
        code: "no_live_subscription",
        field: "customer_id",
        reason: `customer ${CUSTOMER} has no live subscription (trialing, active or past_due)`,
      },
    ]);
    const several = judgeEvents(
      [{ id: "x", customer_id: CUSTOMER, meter: "calls" }],
      meters,
      { byId: new Map(), liveByCustomer: new Map([[CUSTOMER, [live(SUB), live(OTHER)]]]) },
      now,
      24,
    );
    expect(several.verdicts).toEqual([
      {
        status: "refused",
        code: "ambiguous_customer",
        field: "customer_id",
        reason: `customer ${CUSTOMER} has 2 live subscriptions (${SUB}, ${OTHER}); send subscription_id instead`,
      },
    ]);
    expect(several.candidates).toEqual([]);
  });
});
