import { describe, expect, it } from "vitest";
import type { PriceModel } from "../../../src/billing/price-models.js";
import { MAX_USAGE_LINE_QUANTITY, priceUsage, type UsagePrice } from "../../../src/billing/usage-pricing.js";

/** Usage prices in minor units (QAR fils), each on its own meter. */
const priced = (meterCode: string, price: PriceModel): UsagePrice => ({
  meterId: `meter-${meterCode}`,
  meterCode,
  meterName: `${meterCode} name`,
  price,
});

/** 1–1000 free, 1001–5000 at 0.02, 5001 and up at 0.01 plus 5.00 once. */
const TIERS = [
  { upTo: 1_000, unitAmountMinor: 0, flatAmountMinor: 0 },
  { upTo: 5_000, unitAmountMinor: 2, flatAmountMinor: 0 },
  { upTo: null, unitAmountMinor: 1, flatAmountMinor: 500 },
];

const total = (prices: UsagePrice[], usage: Record<string, number>) =>
  priceUsage(prices, new Map(Object.entries(usage))).map((line) => [line.quantity, line.amountMinor]);

describe("priceUsage", () => {
  it.each([
    // per unit: a sum of 1,234 calls at 0.05
    ["per_unit", { model: "per_unit", unitAmountMinor: 5 }, 1_234, 6_170],
    // graduated tiers across the boundary at 1,000 and into the open tier at 5,001
    ["tiered below the first boundary", { model: "tiered", tiers: TIERS }, 1_000, 0],
    ["tiered one past the first boundary", { model: "tiered", tiers: TIERS }, 1_001, 2],
    ["tiered into the last tier", { model: "tiered", tiers: TIERS }, 6_000, 4_000 * 2 + 1_000 * 1 + 500],
    // volume: the tier the whole quantity falls in prices every unit
    ["volume in the second tier", { model: "volume", tiers: TIERS }, 3_000, 6_000],
    ["volume in the last tier", { model: "volume", tiers: TIERS }, 6_000, 6_000 + 500],
    // package: 1,000 units a package at 3.00, a started package paid in full
    ["package exact", { model: "package", packageAmountMinor: 300, packageSize: 1_000 }, 2_000, 600],
    ["package rounding up", { model: "package", packageAmountMinor: 300, packageSize: 1_000 }, 2_001, 900],
    ["package of one unit", { model: "package", packageAmountMinor: 300, packageSize: 1_000 }, 1, 300],
    // zero usage costs nothing, but a flat price is the period's whatever its usage
    ["per_unit at zero", { model: "per_unit", unitAmountMinor: 5 }, 0, 0],
    ["tiered at zero", { model: "tiered", tiers: TIERS }, 0, 0],
    ["package at zero", { model: "package", packageAmountMinor: 300, packageSize: 1_000 }, 0, 0],
    ["flat at zero", { model: "flat", amountMinor: 2_500 }, 0, 2_500],
  ] as const)("%s: %i units cost %i", (_name, price, quantity, amountMinor) => {
    expect(total([priced("api_calls", price as PriceModel)], { api_calls: quantity })).toEqual([
      [quantity, amountMinor],
    ]);
  });

  it("prices each meter on a line of its own, in meter code order, usage summed per line", () => {
    const lines = priceUsage(
      [
        priced("storage_bytes", { model: "package", packageAmountMinor: 100, packageSize: 1_000_000 }),
        priced("api_calls", { model: "per_unit", unitAmountMinor: 5 }),
        priced("active_users", { model: "tiered", tiers: TIERS }),
      ],
      new Map([
        ["api_calls", 1_234],
        ["storage_bytes", 2_500_000],
        ["not_priced", 99],
      ]),
    );
    expect(lines).toEqual([
      expect.objectContaining({
        kind: "usage",
        description: "active_users name",
        quantity: 0,
        amountMinor: 0,
        parts: [],
      }),
      expect.objectContaining({
        kind: "usage",
        description: "api_calls name",
        quantity: 1_234,
        amountMinor: 6_170,
      }),
      expect.objectContaining({
        kind: "usage",
        description: "storage_bytes name",
        quantity: 2_500_000,
        amountMinor: 300,
      }),
    ]);
    expect(lines.map((line) => line.refId)).toEqual([
      "meter-active_users",
      "meter-api_calls",
      "meter-storage_bytes",
    ]);
    expect(lines.reduce((sum, line) => sum + line.amountMinor, 0)).toBe(6_470);
  });

  it("gives the same lines for the same prices and usage, whatever the order they come in", () => {
    const prices = [
      priced("b", { model: "per_unit", unitAmountMinor: 3 }),
      priced("a", { model: "volume", tiers: TIERS }),
    ];
    const usage = new Map([
      ["a", 5_001],
      ["b", 7],
    ]);
    expect(priceUsage(prices, usage)).toEqual(priceUsage([...prices].reverse(), usage));
    expect(priceUsage(prices, usage).map((line) => line.amountMinor)).toEqual([5_001 + 500, 21]);
  });

  it("has no line without a price, and refuses a quantity a charge line cannot hold", () => {
    expect(priceUsage([], new Map([["api_calls", 5]]))).toEqual([]);
    expect(() =>
      priceUsage(
        [priced("bytes", { model: "per_unit", unitAmountMinor: 1 })],
        new Map([["bytes", MAX_USAGE_LINE_QUANTITY + 1]]),
      ),
    ).toThrow(/usage of meter bytes is 2147483648/);
  });
});
