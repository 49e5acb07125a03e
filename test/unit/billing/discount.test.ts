import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  type CouponDurationTerms,
  type CouponTerms,
  chargeForPeriod,
  couponRefusal,
  couponTerms,
} from "../../../src/billing/discount.js";

const percent = (
  percentOff: number,
  duration: CouponDurationTerms = { duration: "forever", durationPeriods: null },
) => ({
  type: "percentage" as const,
  percentOff,
  ...duration,
});
const fixed = (
  amountOffMinor: number,
  duration: CouponDurationTerms = { duration: "forever", durationPeriods: null },
) => ({
  type: "fixed" as const,
  amountOffMinor,
  currency: "QAR",
  ...duration,
});

describe("chargeForPeriod", () => {
  it.each([
    [
      "no discount, no credit",
      10_000,
      null,
      0,
      { amountMinor: 10_000, discountMinor: 0, discountPercent: null, creditAppliedMinor: 0 },
    ],
    [
      "15% off",
      10_000,
      { ...percent(15), periodsApplied: 0 },
      0,
      { amountMinor: 8_500, discountMinor: 1_500, discountPercent: 15 },
    ],
    // 999 × 33% = 329.67 → 330, half up as the gateway rounds an invoice's percentage
    [
      "a percentage that does not divide",
      999,
      { ...percent(33), periodsApplied: 0 },
      0,
      { amountMinor: 669, discountMinor: 330 },
    ],
    [
      "99% of 1 rounds to the whole unit: zero to pay",
      1,
      { ...percent(99), periodsApplied: 0 },
      0,
      { amountMinor: 0, discountMinor: 1 },
    ],
    [
      "a fixed amount",
      10_000,
      { ...fixed(2_500), periodsApplied: 0 },
      0,
      { amountMinor: 7_500, discountMinor: 2_500, discountPercent: null },
    ],
    [
      "a fixed amount above the price stops at the price",
      1_500,
      { ...fixed(2_000), periodsApplied: 0 },
      0,
      { amountMinor: 0, discountMinor: 1_500 },
    ],
    [
      "credit after the discount",
      10_000,
      { ...percent(10), periodsApplied: 0 },
      4_000,
      { amountMinor: 5_000, creditAppliedMinor: 4_000, creditLeftMinor: 0 },
    ],
    [
      "credit larger than the charge is carried",
      10_000,
      { ...percent(10), periodsApplied: 0 },
      12_000,
      { amountMinor: 0, creditAppliedMinor: 9_000, creditLeftMinor: 3_000 },
    ],
  ] as const)("%s", (_name, priceMinor, discount, creditMinor, expected) => {
    expect(chargeForPeriod({ priceMinor, discount, creditMinor })).toMatchObject(expected);
  });

  it.each([
    ["once, first period", { duration: "once", durationPeriods: null }, 0, true, true],
    ["once, second period", { duration: "once", durationPeriods: null }, 1, false, false],
    ["repeating 3, third period", { duration: "repeating", durationPeriods: 3 }, 2, true, true],
    ["repeating 3, second period", { duration: "repeating", durationPeriods: 3 }, 1, true, false],
    ["repeating 3, fourth period", { duration: "repeating", durationPeriods: 3 }, 3, false, false],
    ["forever, hundredth period", { duration: "forever", durationPeriods: null }, 99, true, false],
  ] as const)("duration %s", (_name, duration, periodsApplied, applied, ends) => {
    const result = chargeForPeriod({
      priceMinor: 10_000,
      discount: { ...percent(20, duration), periodsApplied },
      creditMinor: 0,
    });
    expect([result.discountApplied, result.discountEnds, result.amountMinor]).toEqual([
      applied,
      ends,
      applied ? 8_000 : 10_000,
    ]);
  });
});

describe("couponRefusal", () => {
  const now = DateTime.fromISO("2026-03-01T00:00:00+03:00");
  const base = { expiresAt: null, archived: false, redemptions: 0, maxRedemptions: null };
  const pct: CouponTerms = { type: "percentage", percentOff: 10 };
  it.each([
    ["a live coupon", { ...base, terms: pct }, "QAR", null],
    ["a percentage coupon in any currency", { ...base, terms: pct }, "KWD", null],
    ["expired at exactly its expiry", { ...base, terms: pct, expiresAt: now }, "QAR", "expired"],
    [
      "not yet expired a second before",
      { ...base, terms: pct, expiresAt: now.plus({ seconds: 1 }) },
      "QAR",
      null,
    ],
    ["archived", { ...base, terms: pct, archived: true }, "QAR", "archived"],
    ["all redemptions used", { ...base, terms: pct, redemptions: 5, maxRedemptions: 5 }, "QAR", "exhausted"],
    [
      "a fixed coupon in another currency",
      { ...base, terms: { type: "fixed", amountOffMinor: 100, currency: "QAR" } },
      "KWD",
      "currency_mismatch",
    ],
  ] as const)("%s", (_name, coupon, currency, expected) => {
    expect(couponRefusal(coupon, now, currency)).toBe(expected);
  });
});

describe("couponTerms", () => {
  it("reads a stored coupon's columns as its terms", () => {
    expect(
      couponTerms({ discountType: "percentage", percentOff: 15, amountOffMinor: null, currency: null }),
    ).toEqual({
      type: "percentage",
      percentOff: 15,
    });
    expect(
      couponTerms({ discountType: "fixed", percentOff: null, amountOffMinor: 2_500, currency: "QAR" }),
    ).toEqual({
      type: "fixed",
      amountOffMinor: 2_500,
      currency: "QAR",
    });
  });

  it("refuses columns that do not make the coupon's kind", () => {
    expect(() =>
      couponTerms({ discountType: "fixed", percentOff: 15, amountOffMinor: null, currency: null }),
    ).toThrow(/a fixed coupon without its terms/);
  });
});
