import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { type SubscriptionBilling, subscriptionPatch } from "../../../src/charging/subscription-patch.js";

const at = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });
const monthly: SubscriptionBilling = {
  billingAnchor: at("2026-01-31T09:00:00Z"),
  timezone: "Asia/Qatar",
  interval: { unit: "month", count: 1 },
  currentPeriodEnd: at("2026-02-28T09:00:00Z"),
  nextBillingAt: at("2026-02-28T09:00:00Z"),
};

describe("the subscription after a charge outcome", () => {
  const now = at("2026-02-10T00:00:00Z");

  it("active keeps its schedule", () => {
    expect(subscriptionPatch("active", monthly, now, "r")).toEqual({
      status: "active",
      nextBillingAt: monthly.nextBillingAt,
    });
  });

  it("active again after unpaid resumes at the end of the current period", () => {
    const unpaid = { ...monthly, nextBillingAt: null };
    expect(subscriptionPatch("active", unpaid, now, "r").nextBillingAt).toEqual(monthly.currentPeriodEnd);
  });

  it("after unpaid past its period, resumes at the start of the period running now (charged at once)", () => {
    const unpaid = { ...monthly, nextBillingAt: null };
    const later = at("2026-04-10T00:00:00Z");
    // Periods start on the anchor day (31st, clamped): Mar 31, 12:00 in Qatar.
    expect(subscriptionPatch("active", unpaid, later, "r").nextBillingAt).toEqual(at("2026-03-31T09:00:00Z"));
  });

  it("past_due keeps next_billing_at; unpaid and canceled stop billing", () => {
    expect(subscriptionPatch("past_due", monthly, now, "r")).toEqual({ status: "past_due" });
    expect(subscriptionPatch("unpaid", monthly, now, "r")).toEqual({ status: "unpaid", nextBillingAt: null });
    expect(subscriptionPatch("canceled", monthly, now, "dunning ended")).toEqual({
      status: "canceled",
      nextBillingAt: null,
      canceledAt: now,
      endedReason: "dunning ended",
    });
  });

  it("refuses states an outcome never leads to", () => {
    expect(() => subscriptionPatch("paused", monthly, now, "r")).toThrow(RangeError);
  });
});
