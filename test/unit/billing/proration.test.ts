import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  type PricedPlan,
  pricesForProration,
  quotePlanChange,
  sameInterval,
} from "../../../src/billing/proration.js";
import type { ProrationBehavior } from "../../../src/billing/proration-behaviors.js";

const at = (iso: string) => DateTime.fromISO(iso, { setZone: true });
const monthly = (amountMinor: number): PricedPlan => ({ amountMinor, interval: { unit: "month", count: 1 } });
const yearly = (amountMinor: number): PricedPlan => ({ amountMinor, interval: { unit: "year", count: 1 } });

function quote(
  behavior: ProrationBehavior,
  period: [string, string],
  change: string,
  from: PricedPlan,
  to: PricedPlan,
  options: { trialing?: boolean; timezone?: string } = {},
) {
  return quotePlanChange({
    behavior,
    trialing: options.trialing ?? false,
    period: { start: at(period[0]), end: at(period[1]) },
    at: at(change),
    from,
    to,
    timezone: options.timezone ?? "Asia/Qatar",
  });
}

describe("quotePlanChange: immediate_prorate on the same interval", () => {
  it.each([
    // 16 of January's 31 days unused: 10000 × 16/31 = 5161.29 → 5161, 20000 × 16/31 = 10322.58 → 10323
    [
      "an upgrade mid-January",
      ["2026-01-01T00:00:00+03:00", "2026-02-01T00:00:00+03:00"],
      "2026-01-16T00:00:00+03:00",
      10_000,
      20_000,
      5_161,
      10_323,
    ],
    // the same downgrade: the customer is owed 5162
    [
      "a downgrade mid-January",
      ["2026-01-01T00:00:00+03:00", "2026-02-01T00:00:00+03:00"],
      "2026-01-16T00:00:00+03:00",
      20_000,
      10_000,
      10_323,
      5_161,
    ],
    // leap February has 29 days: 15/29 of 10000 = 5172.41 → 5172, of 20000 = 10344.83 → 10345
    [
      "in a leap February",
      ["2028-02-01T00:00:00+03:00", "2028-03-01T00:00:00+03:00"],
      "2028-02-15T00:00:00+03:00",
      10_000,
      20_000,
      5_172,
      10_345,
    ],
    // an ordinary February has 28: 14/28 is exactly half
    [
      "in an ordinary February",
      ["2027-02-01T00:00:00+03:00", "2027-03-01T00:00:00+03:00"],
      "2027-02-15T00:00:00+03:00",
      10_000,
      20_000,
      5_000,
      10_000,
    ],
    // anchored on the 31st, February's period runs Jan 31 → Feb 28 (28 days); 14 days left
    [
      "a month-end anchor in February",
      ["2026-01-31T00:00:00+03:00", "2026-02-28T00:00:00+03:00"],
      "2026-02-14T00:00:00+03:00",
      10_000,
      30_000,
      5_000,
      15_000,
    ],
    // one second of 2,678,400 left: both sides round to nothing
    [
      "on the last second of the period",
      ["2026-01-01T00:00:00+03:00", "2026-02-01T00:00:00+03:00"],
      "2026-01-31T23:59:59+03:00",
      10_000,
      20_000,
      0,
      0,
    ],
    // at the very start the whole period is unused
    [
      "at the first instant of the period",
      ["2026-01-01T00:00:00+03:00", "2026-02-01T00:00:00+03:00"],
      "2026-01-01T00:00:00+03:00",
      10_000,
      20_000,
      10_000,
      20_000,
    ],
    // half a fils rounds up: 1 × 1/2
    [
      "half a minor unit rounds up",
      ["2026-01-01T00:00:00+03:00", "2026-01-03T00:00:00+03:00"],
      "2026-01-02T00:00:00+03:00",
      1,
      3,
      1,
      2,
    ],
  ] as const)("%s", (_name, period, change, from, to, credit, debit) => {
    const result = quote("immediate_prorate", [period[0], period[1]], change, monthly(from), monthly(to));
    expect(result).toMatchObject({
      kind: "now",
      creditMinor: credit,
      debitMinor: debit,
      netMinor: debit - credit,
      reanchored: null,
    });
  });

  it("measures a period across a DST change in the subscription's zone (London's March has 743 hours)", () => {
    // 2026-03-01T00:00Z → 2026-04-01T00:00+01:00; the last local day (24 h) unused: 10000 × 24/743
    const result = quote(
      "immediate_prorate",
      ["2026-03-01T00:00:00+00:00", "2026-04-01T00:00:00+01:00"],
      "2026-03-31T00:00:00+01:00",
      monthly(10_000),
      monthly(20_000),
      { timezone: "Europe/London" },
    );
    expect(result).toMatchObject({ creditMinor: 323, debitMinor: 646 });
  });
});

describe("quotePlanChange: interval changes re-anchor", () => {
  it("monthly → yearly mid-January: credit for the unused month, the year charged in full from now", () => {
    const result = quote(
      "immediate_prorate",
      ["2026-01-01T00:00:00+03:00", "2026-02-01T00:00:00+03:00"],
      "2026-01-16T00:00:00+03:00",
      monthly(10_000),
      yearly(100_000),
    );
    expect(result.kind).toBe("now");
    if (result.kind !== "now") return;
    expect([result.creditMinor, result.debitMinor, result.netMinor]).toEqual([5_161, 100_000, 94_839]);
    expect(result.reanchored?.start.toISO()).toBe("2026-01-15T21:00:00.000Z");
    expect(result.reanchored?.end.toISO()).toBe("2027-01-15T21:00:00.000Z");
  });

  it("a leap day re-anchors on February 29 and its year ends on February 28", () => {
    const result = quote(
      "none",
      ["2028-02-01T00:00:00+03:00", "2028-03-01T00:00:00+03:00"],
      "2028-02-29T12:00:00+03:00",
      monthly(10_000),
      yearly(100_000),
    );
    if (result.kind !== "now") throw new Error("expected an immediate change");
    expect([result.creditMinor, result.debitMinor]).toEqual([0, 100_000]);
    expect(result.reanchored?.end.setZone("Asia/Qatar").toISO()).toBe("2029-02-28T12:00:00.000+03:00");
  });

  it("twelve months is the same interval as a year, so nothing re-anchors", () => {
    expect(sameInterval({ unit: "month", count: 12 }, { unit: "year", count: 1 })).toBe(true);
    expect(sameInterval({ unit: "week", count: 2 }, { unit: "day", count: 14 })).toBe(true);
    expect(sameInterval({ unit: "month", count: 1 }, { unit: "day", count: 30 })).toBe(false);
  });
});

describe("quotePlanChange: other behaviours", () => {
  const period = ["2026-01-01T00:00:00+03:00", "2026-02-01T00:00:00+03:00"] as [string, string];

  it("at_period_end takes effect at the period's end and prorates nothing", () => {
    const result = quote(
      "at_period_end",
      period,
      "2026-01-16T00:00:00+03:00",
      monthly(10_000),
      yearly(100_000),
    );
    expect(result).toMatchObject({ kind: "scheduled", reanchor: true });
    expect(result.effectiveAt.toISO()).toBe("2026-01-31T21:00:00.000Z");
  });

  it("none on the same interval changes the plan now for nothing", () => {
    const result = quote("none", period, "2026-01-16T00:00:00+03:00", monthly(10_000), monthly(20_000));
    expect(result).toMatchObject({
      kind: "now",
      creditMinor: 0,
      debitMinor: 0,
      netMinor: 0,
      reanchored: null,
    });
  });

  it("a trialing subscription paid nothing: no credit, no debit, and the trial's end stays the anchor", () => {
    const result = quote(
      "immediate_prorate",
      period,
      "2026-01-16T00:00:00+03:00",
      monthly(10_000),
      yearly(100_000),
      {
        trialing: true,
      },
    );
    expect(result).toMatchObject({
      kind: "now",
      creditMinor: 0,
      debitMinor: 0,
      netMinor: 0,
      reanchored: null,
    });
  });

  it.each([
    ["before the period", "2025-12-31T23:59:59+03:00"],
    ["at its end (the next period's first instant)", "2026-02-01T00:00:00+03:00"],
  ])("refuses a change %s", (_name, change) => {
    expect(() => quote("immediate_prorate", period, change, monthly(1), monthly(2))).toThrow(
      /outside the current period/,
    );
  });
});

describe("pricesForProration", () => {
  it.each([
    [
      "a period with no charge of its own is weighed at the plans' prices",
      null,
      monthly(20_000),
      [10_000, 20_000],
    ],
    ["a paid period at its cost", { paid: 10_000, discountPercent: null }, monthly(20_000), [10_000, 20_000]],
    // 50% off: the period cost 50.00, and Gold under the same coupon costs 100.00 a period
    [
      "both sides under the period's percentage coupon",
      { paid: 5_000, discountPercent: 50 },
      monthly(20_000),
      [5_000, 10_000],
    ],
    // 15% of 99.99 = 14.9985 → 15.00 off, half up as a period's charge
    [
      "the new price rounded as a period's charge is",
      { paid: 8_499, discountPercent: 15 },
      monthly(9_999),
      [8_499, 8_499],
    ],
    [
      "a fixed coupon's period at its cost, the new plan at its price",
      { paid: 7_500, discountPercent: null },
      monthly(20_000),
      [7_500, 20_000],
    ],
    ["a refunded period costs nothing", { paid: 0, discountPercent: null }, monthly(20_000), [0, 20_000]],
    // re-anchored: the new first period is a whole period, which the live coupon prices itself
    [
      "a new interval keeps the new plan's price",
      { paid: 5_000, discountPercent: 50 },
      yearly(100_000),
      [5_000, 100_000],
    ],
  ] as const)("%s", (_name, cost, to, [fromPrice, toPrice]) => {
    const prices = pricesForProration(monthly(10_000), to, cost);
    expect([prices.from.amountMinor, prices.to.amountMinor]).toEqual([fromPrice, toPrice]);
  });
});
