import { describe, expect, it } from "vitest";
import type { PriceModel } from "../../../src/billing/price-models.js";
import { type BilledUsage, lessBilled, priceGrowsWithUsage } from "../../../src/billing/usage-parts.js";
import { priceUsage, type UsagePrice } from "../../../src/billing/usage-pricing.js";

/** 1–1000 free, 1001–5000 at 0.02, 5001 and up at 0.01 plus 5.00 once (QAR fils). */
const TIERS = [
  { upTo: 1_000, unitAmountMinor: 0, flatAmountMinor: 0 },
  { upTo: 5_000, unitAmountMinor: 2, flatAmountMinor: 0 },
  { upTo: null, unitAmountMinor: 1, flatAmountMinor: 500 },
];

const calls: UsagePrice = {
  meterId: "meter-calls",
  meterCode: "calls",
  meterName: "API calls",
  price: { model: "tiered", tiers: TIERS },
};

/** Bills the usage values in turn as parts, each less what the earlier ones billed. */
function bill(values: readonly number[]) {
  let billed: BilledUsage = { quantity: 0, amountMinor: 0 };
  return values.map((value) => {
    const [line] = lessBilled(
      priceUsage([calls], new Map([["calls", value]])),
      new Map([["meter-calls", billed]]),
    );
    billed = {
      quantity: billed.quantity + line!.quantity,
      amountMinor: billed.amountMinor + line!.amountMinor,
    };
    return [line!.quantity, line!.amountMinor];
  });
}

describe("lessBilled", () => {
  it("bills graduated usage in parts that add up to the period's price", () => {
    // 1,200 calls: 200 × 0.02; 3,000: 40.00 less 4.00; the close at 6,000: 95.00 less 40.00.
    expect(bill([1_200, 3_000, 6_000])).toEqual([
      [1_200, 400],
      [1_800, 3_600],
      [3_000, 5_500],
    ]);
    expect(400 + 3_600 + 5_500).toBe(priceUsage([calls], new Map([["calls", 6_000]]))[0]!.amountMinor);
  });

  it("leaves a meter nothing billed before as the plain usage line, tier parts and all", () => {
    const lines = priceUsage([calls], new Map([["calls", 1_200]]));
    expect(lessBilled(lines, new Map())).toEqual(lines);
    expect(lessBilled(lines, new Map())[0]!.parts.length).toBeGreaterThan(0);
  });

  it("drops the tier parts of a line that earlier parts billed from", () => {
    const lines = priceUsage([calls], new Map([["calls", 6_000]]));
    const [line] = lessBilled(lines, new Map([["meter-calls", { quantity: 1_200, amountMinor: 400 }]]));
    expect(line).toMatchObject({ quantity: 4_800, amountMinor: 9_100, parts: [] });
  });

  it("never bills below zero when a price fell after a part was billed", () => {
    const cheaper: UsagePrice = { ...calls, price: { model: "per_unit", unitAmountMinor: 1 } };
    const lines = priceUsage([cheaper], new Map([["calls", 3_000]]));
    const [line] = lessBilled(lines, new Map([["meter-calls", { quantity: 3_000, amountMinor: 4_000 }]]));
    expect(line).toMatchObject({ quantity: 0, amountMinor: 0 });
  });
});

describe("priceGrowsWithUsage", () => {
  it.each<[string, PriceModel, boolean]>([
    ["flat", { model: "flat", amountMinor: 1_000 }, true],
    ["per unit", { model: "per_unit", unitAmountMinor: 5 }, true],
    ["graduated tiers", { model: "tiered", tiers: TIERS }, true],
    ["package", { model: "package", packageAmountMinor: 300, packageSize: 1_000 }, true],
    // 5,000 calls cost 100.00; 5,001 fall into the cheaper tier: 55.01.
    ["volume", { model: "volume", tiers: TIERS }, false],
  ])("%s: %s", (_name, price, grows) => {
    expect(priceGrowsWithUsage(price)).toBe(grows);
  });
});
