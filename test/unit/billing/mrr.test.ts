import { describe, expect, it } from "vitest";
import { monthlyRecurringMinor, type PlanShare } from "../../../src/billing/mrr.js";

const share = (
  amountMinor: number,
  intervalUnit: PlanShare["intervalUnit"],
  intervalCount: number,
  subscriptions: number,
): PlanShare => ({ amountMinor, intervalUnit, intervalCount, subscriptions });

describe("monthlyRecurringMinor", () => {
  it.each([
    ["no subscriptions", [], 0],
    ["one monthly plan", [share(10_000, "month", 1, 3)], 30_000],
    ["a quarterly plan counts a third a month", [share(30_000, "month", 3, 1)], 10_000],
    ["a yearly plan counts a twelfth", [share(120_000, "year", 1, 2)], 20_000],
    // 100.00 a year is 8.333… a month: rounded once, half up
    ["a yearly plan that does not divide", [share(10_000, "year", 1, 1)], 833],
    // three of them are exactly 25.00, not 3 × 8.33
    ["fractions summed before rounding", [share(10_000, "year", 1, 3)], 2_500],
    ["a weekly plan is 52/12 of its price", [share(1_200, "week", 1, 1)], 5_200],
    ["a daily plan is 365/12 of its price", [share(100, "day", 1, 12)], 36_500],
    ["a 30-day plan", [share(3_000, "day", 30, 1)], 3_042],
    [
      "plans of every interval together",
      [share(10_000, "month", 1, 1), share(10_000, "year", 1, 1), share(1_200, "week", 1, 1)],
      10_000 + 833 + 5_200,
    ],
    ["half a minor unit rounds up", [share(1, "month", 2, 1)], 1],
    // A coupon's share is negative: 3 × 100.00 less one 20.00 discount
    ["a coupon's share comes off", [share(10_000, "month", 1, 3), share(-2_000, "month", 1, 1)], 28_000],
    // 10.00 off a yearly 100.00 leaves 90.00 a year: 7.50 a month, summed exactly before rounding
    [
      "a yearly coupon's share, fractions summed",
      [share(10_000, "year", 1, 1), share(-1_000, "year", 1, 1)],
      750,
    ],
    ["a share with no subscriptions adds nothing", [share(99_999, "month", 1, 0)], 0],
  ] as const)("%s", (_name, shares, expected) => {
    expect(monthlyRecurringMinor(shares)).toBe(expected);
  });

  it("stays exact for a million subscriptions of an awkward plan", () => {
    // 999.999 KWD a year × 1,000,000 = 83,333,250.000 a month, in fils
    expect(monthlyRecurringMinor([share(999_999, "year", 1, 1_000_000)])).toBe(83_333_250_000);
  });
});
