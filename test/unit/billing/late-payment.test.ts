import { describe, expect, it } from "vitest";
import {
  type LateWatchPolicy,
  latePaymentDecision,
  lateWatchDelaySeconds,
} from "../../../src/billing/index.js";

const WEEK = 7 * 86_400;
const policy: LateWatchPolicy = { windowSeconds: WEEK, firstDelaySeconds: 60, maxDelaySeconds: 6 * 3600 };

describe("lateWatchDelaySeconds", () => {
  it.each([
    // checks done, age of the attempt (s), next delay (s) or null when the watch ends
    [0, 300, 60],
    [1, 360, 120],
    [2, 480, 240],
    [5, 3_000, 1_920],
    [8, 20_000, 15_360],
    [9, 40_000, 21_600], // capped at six hours
    [30, 500_000, 21_600],
    [30, WEEK - 21_600, 21_600], // the last check lands exactly at the end of the window
    [30, WEEK - 21_599, null],
    [0, WEEK, null],
  ])("after %i checks at age %is: %s", (checks, age, expected) => {
    expect(lateWatchDelaySeconds(policy, checks, age)).toBe(expected);
  });

  it("is off with a zero window", () => {
    expect(lateWatchDelaySeconds({ ...policy, windowSeconds: 0 }, 0, 0)).toBeNull();
  });

  it("refuses a negative or fractional check count", () => {
    expect(() => lateWatchDelaySeconds(policy, -1, 0)).toThrow(RangeError);
    expect(() => lateWatchDelaySeconds(policy, 1.5, 0)).toThrow(RangeError);
  });
});

describe("latePaymentDecision", () => {
  it.each([
    ["retrying", "past_due", { kind: "pay", subscriptionChange: { from: "past_due", to: "active" } }],
    ["retrying", "active", { kind: "pay", subscriptionChange: null }],
    ["uncollectible", "unpaid", { kind: "pay", subscriptionChange: { from: "unpaid", to: "active" } }],
    ["uncollectible", "canceled", { kind: "pay", subscriptionChange: null }],
    ["uncollectible", "paused", { kind: "pay", subscriptionChange: null }],
    ["paid", "active", { kind: "refund_duplicate" }],
    ["paid", "canceled", { kind: "refund_duplicate" }],
    ["canceled", "canceled", { kind: "hold" }],
    ["processing", "past_due", { kind: "wait" }],
    ["needs_review", "past_due", { kind: "wait" }],
    // A payment link's checkout: the charge waiting for it, or back on the card meanwhile.
    ["awaiting_payment", "trialing", { kind: "pay", subscriptionChange: { from: "trialing", to: "active" } }],
    ["awaiting_payment", "active", { kind: "pay", subscriptionChange: null }],
    ["scheduled", "active", { kind: "pay", subscriptionChange: null }],
  ] as const)("a %s charge of a %s subscription: %o", (charge, subscription, expected) => {
    expect(latePaymentDecision(charge, subscription)).toEqual(expected);
  });
});
