import { describe, expect, it } from "vitest";
import {
  type PriceModel,
  type PriceTier,
  priceBreakdown,
  priceModelOf,
  priceOf,
  tierIssues,
  tiersFromStored,
  tiersProblem,
  tiersToStored,
} from "../../../src/billing/price-models.js";

const MAX = Number.MAX_SAFE_INTEGER;

const tier = (upTo: number | null, unitAmountMinor: number, flatAmountMinor = 0): PriceTier => ({
  upTo,
  unitAmountMinor,
  flatAmountMinor,
});

/** 1–10 at 5.00, 11–50 at 4.00 plus 10.00 once, 51 and up at 3.00 (QAR minor units). */
const TIERS = [tier(10, 500), tier(50, 400, 1_000), tier(null, 300)];

const flat: PriceModel = { model: "flat", amountMinor: 10_000 };
const perUnit: PriceModel = { model: "per_unit", unitAmountMinor: 250 };
const tiered: PriceModel = { model: "tiered", tiers: TIERS };
const volume: PriceModel = { model: "volume", tiers: TIERS };
const packages: PriceModel = { model: "package", packageAmountMinor: 1_500, packageSize: 10 };

describe("priceOf", () => {
  it.each([
    // flat: the amount whatever the quantity, 0 included
    ["flat", flat, 0, 10_000],
    ["flat", flat, 1, 10_000],
    ["flat", flat, 1_000_000, 10_000],
    // per unit
    ["per_unit", perUnit, 0, 0],
    ["per_unit", perUnit, 1, 250],
    ["per_unit", perUnit, 4, 1_000],
    ["per_unit", perUnit, 1_000_000, 250_000_000],
    // graduated: each tier prices its own units
    ["tiered", tiered, 0, 0],
    ["tiered", tiered, 1, 500],
    ["tiered", tiered, 10, 5_000],
    // 10 × 5.00 + 1 × 4.00 + 10.00 (the second tier's flat amount, once a unit falls in it)
    ["tiered", tiered, 11, 6_400],
    ["tiered", tiered, 50, 22_000],
    ["tiered", tiered, 51, 22_300],
    ["tiered", tiered, 1_000, 307_000],
    // volume: the tier of the whole quantity prices every unit
    ["volume", volume, 0, 0],
    ["volume", volume, 1, 500],
    ["volume", volume, 10, 5_000],
    ["volume", volume, 11, 5_400],
    ["volume", volume, 50, 21_000],
    ["volume", volume, 51, 15_300],
    ["volume", volume, 1_000, 300_000],
    // packages of 10 at 15.00: a started package is paid in full
    ["package", packages, 0, 0],
    ["package", packages, 1, 1_500],
    ["package", packages, 9, 1_500],
    ["package", packages, 10, 1_500],
    ["package", packages, 11, 3_000],
    ["package", packages, 20, 3_000],
    ["package", packages, 21, 4_500],
    ["package of 1", { model: "package", packageAmountMinor: 700, packageSize: 1 }, 7, 4_900],
  ] as const)("%s × %i = %i", (_name, price, quantity, expected) => {
    expect(priceOf(price, quantity)).toBe(expected);
  });

  it.each([
    // a one-tier list is an open tier from the first unit
    ["tiered, one open tier", { model: "tiered", tiers: [tier(null, 100, 50)] }, 3, 350],
    ["volume, one open tier", { model: "volume", tiers: [tier(null, 100, 50)] }, 3, 350],
    // a volume first tier's flat amount is owed at quantity 0; a graduated one is not
    [
      "volume, first-tier flat at 0",
      { model: "volume", tiers: [tier(5, 0, 2_000), tier(null, 100)] },
      0,
      2_000,
    ],
    ["tiered, first-tier flat at 0", { model: "tiered", tiers: [tier(5, 0, 2_000), tier(null, 100)] }, 0, 0],
    ["tiered, a free first tier", { model: "tiered", tiers: [tier(5, 0), tier(null, 100)] }, 7, 200],
    ["volume, a free first tier", { model: "volume", tiers: [tier(5, 0), tier(null, 100)] }, 5, 0],
  ] as const)("%s × %i = %i", (_name, price, quantity, expected) => {
    expect(priceOf(price, quantity)).toBe(expected);
  });

  it.each([
    // the largest exact prices are given, not refused
    ["per_unit at the limit", { model: "per_unit", unitAmountMinor: 1 }, MAX, MAX],
    ["flat at the limit", { model: "flat", amountMinor: MAX }, MAX, MAX],
    // 9007199254740991 units in packages of 2 and 3: counted exactly, never via a rounded quotient
    [
      "packages of 2 at the limit",
      { model: "package", packageAmountMinor: 1, packageSize: 2 },
      MAX,
      4_503_599_627_370_496,
    ],
    [
      "packages of 3 at the limit",
      { model: "package", packageAmountMinor: 1, packageSize: 3 },
      MAX,
      3_002_399_751_580_331,
    ],
  ] as const)("%s: %s × %i = %i", (_name, price, quantity, expected) => {
    expect(priceOf(price, quantity)).toBe(expected);
  });

  it.each([
    [
      "per_unit past the limit",
      { model: "per_unit", unitAmountMinor: MAX },
      2,
      "the price is too large to price exactly",
    ],
    ["per_unit, a huge unit price", { model: "per_unit", unitAmountMinor: 2 ** 40 }, 2 ** 20, "too large"],
    [
      "package past the limit",
      { model: "package", packageAmountMinor: MAX, packageSize: 10 },
      11,
      "too large",
    ],
    ["tiered, one tier past the limit", { model: "tiered", tiers: [tier(null, 2 ** 52)] }, 3, "too large"],
    // each tier fits, their sum does not
    [
      "tiered, the sum past the limit",
      { model: "tiered", tiers: [tier(1, MAX - 1), tier(null, 2)] },
      2,
      "too large",
    ],
    ["volume past the limit", { model: "volume", tiers: [tier(1, 1), tier(null, 2 ** 52)] }, 3, "too large"],
    ["flat plus a flat fee past the limit", { model: "tiered", tiers: [tier(null, MAX, 1)] }, 1, "too large"],
    [
      "a quantity past the limit",
      perUnit,
      MAX + 1,
      "quantity must be a whole number from 0, got 9007199254740992",
    ],
    ["a negative quantity", perUnit, -1, "quantity must be a whole number from 0, got -1"],
    ["a fractional quantity", flat, 1.5, "quantity must be a whole number from 0, got 1.5"],
    ["a quantity that is no number", flat, Number.NaN, "got NaN"],
    [
      "a package size of 0",
      { model: "package", packageAmountMinor: 100, packageSize: 0 },
      1,
      "package size must be a whole number from 1",
    ],
    [
      "tiers that cannot price",
      { model: "tiered", tiers: [tier(10, 100)] },
      1,
      "tier 1: up_to must be null: the last tier is open",
    ],
    ["no tiers", { model: "volume", tiers: [] }, 1, "tiers must list at least one tier"],
  ] as const)("%s: RangeError", (_name, price, quantity, message) => {
    expect(() => priceOf(price, quantity)).toThrow(RangeError);
    expect(() => priceOf(price, quantity)).toThrow(message);
  });
});

describe("priceBreakdown", () => {
  it.each([
    [
      "graduated, every tier reached",
      tiered,
      60,
      25_000,
      [
        {
          quantity: 10,
          fromUnit: 1,
          toUnit: 10,
          unitAmountMinor: 500,
          flatAmountMinor: 0,
          amountMinor: 5_000,
        },
        {
          quantity: 40,
          fromUnit: 11,
          toUnit: 50,
          unitAmountMinor: 400,
          flatAmountMinor: 1_000,
          amountMinor: 17_000,
        },
        {
          quantity: 10,
          fromUnit: 51,
          toUnit: null,
          unitAmountMinor: 300,
          flatAmountMinor: 0,
          amountMinor: 3_000,
        },
      ],
    ],
    [
      "graduated, one past the first tier",
      tiered,
      11,
      6_400,
      [
        {
          quantity: 10,
          fromUnit: 1,
          toUnit: 10,
          unitAmountMinor: 500,
          flatAmountMinor: 0,
          amountMinor: 5_000,
        },
        {
          quantity: 1,
          fromUnit: 11,
          toUnit: 50,
          unitAmountMinor: 400,
          flatAmountMinor: 1_000,
          amountMinor: 1_400,
        },
      ],
    ],
    [
      "graduated, exactly at the first up_to: the next tier is not reached",
      tiered,
      10,
      5_000,
      [
        {
          quantity: 10,
          fromUnit: 1,
          toUnit: 10,
          unitAmountMinor: 500,
          flatAmountMinor: 0,
          amountMinor: 5_000,
        },
      ],
    ],
    ["graduated, nothing", tiered, 0, 0, []],
    [
      "volume: one part, the tier of the whole quantity",
      volume,
      11,
      5_400,
      [
        {
          quantity: 11,
          fromUnit: 11,
          toUnit: 50,
          unitAmountMinor: 400,
          flatAmountMinor: 1_000,
          amountMinor: 5_400,
        },
      ],
    ],
    [
      "volume in the open tier",
      volume,
      51,
      15_300,
      [
        {
          quantity: 51,
          fromUnit: 51,
          toUnit: null,
          unitAmountMinor: 300,
          flatAmountMinor: 0,
          amountMinor: 15_300,
        },
      ],
    ],
    [
      "package: the units, the packages started and the price of one",
      packages,
      11,
      3_000,
      [{ quantity: 11, packages: 2, unitAmountMinor: 1_500, flatAmountMinor: 0, amountMinor: 3_000 }],
    ],
    [
      "flat: the amount as the flat part",
      flat,
      3,
      10_000,
      [{ quantity: 3, unitAmountMinor: 0, flatAmountMinor: 10_000, amountMinor: 10_000 }],
    ],
    [
      "per unit",
      perUnit,
      3,
      750,
      [{ quantity: 3, unitAmountMinor: 250, flatAmountMinor: 0, amountMinor: 750 }],
    ],
  ] as const)("%s", (_name, price, quantity, totalMinor, parts) => {
    expect(priceBreakdown(price, quantity)).toEqual({ totalMinor, parts });
  });
});

describe("tiersProblem", () => {
  it.each([
    ["one open tier", [tier(null, 100)], null],
    ["ascending, the last open", TIERS, null],
    ["a free tier", [tier(5, 0), tier(null, 0, 0)], null],
    ["no tiers", [], "tiers must list at least one tier"],
    [
      "an open tier before the last",
      [tier(null, 100), tier(null, 50)],
      "tier 1: up_to must not be null: only the last tier is open",
    ],
    [
      "a closed last tier",
      [tier(10, 100), tier(20, 50)],
      "tier 2: up_to must be null: the last tier is open",
    ],
    ["a single closed tier", [tier(10, 100)], "tier 1: up_to must be null: the last tier is open"],
    ["up_to 0", [tier(0, 100), tier(null, 50)], "tier 1: up_to must be a whole number from 1"],
    ["a negative up_to", [tier(-5, 100), tier(null, 50)], "tier 1: up_to must be a whole number from 1"],
    ["a fractional up_to", [tier(1.5, 100), tier(null, 50)], "tier 1: up_to must be a whole number from 1"],
    [
      "an up_to repeated",
      [tier(10, 100), tier(10, 90), tier(null, 50)],
      "tier 2: up_to must be a whole number above 10",
    ],
    [
      "an up_to going down",
      [tier(10, 100), tier(5, 90), tier(null, 50)],
      "tier 2: up_to must be a whole number above 10",
    ],
    [
      "a negative unit amount",
      [tier(null, -1)],
      "tier 1: unit_amount must be a whole number of minor units from 0",
    ],
    [
      "a fractional flat amount",
      [tier(10, 100), tier(null, 50, 0.5)],
      "tier 2: flat_amount must be a whole number of minor units from 0",
    ],
    [
      "an unsafe unit amount",
      [tier(null, MAX + 1)],
      "tier 1: unit_amount must be a whole number of minor units from 0",
    ],
  ] as const)("%s → %s", (_name, tiers, problem) => {
    expect(tiersProblem(tiers)).toBe(problem);
  });

  it("lists every problem with its tier and field, each tier compared with the highest before it", () => {
    expect(tierIssues([tier(100, 10), tier(5, -1), tier(7, 10), tier(200, 10, 0.5)])).toEqual([
      { tier: 1, field: "up_to", message: "up_to must be a whole number above 100" },
      { tier: 1, field: "unit_amount", message: "unit_amount must be a whole number of minor units from 0" },
      { tier: 2, field: "up_to", message: "up_to must be a whole number above 100" },
      { tier: 3, field: "up_to", message: "up_to must be null: the last tier is open" },
      { tier: 3, field: "flat_amount", message: "flat_amount must be a whole number of minor units from 0" },
    ]);
    expect(tierIssues([])).toEqual([
      { tier: null, field: null, message: "tiers must list at least one tier" },
    ]);
    expect(tierIssues(TIERS)).toEqual([]);
  });
});

describe("stored tiers", () => {
  const stored = [
    { up_to: 10, unit_amount_minor: 500, flat_amount_minor: 0 },
    { up_to: 50, unit_amount_minor: 400, flat_amount_minor: 1_000 },
    { up_to: null, unit_amount_minor: 300, flat_amount_minor: 0 },
  ];

  it("reads and writes the jsonb form, both ways exactly", () => {
    expect(tiersFromStored(stored)).toEqual(TIERS);
    expect(tiersToStored(TIERS)).toEqual(stored);
    expect(tiersFromStored(JSON.parse(JSON.stringify(tiersToStored(TIERS))))).toEqual(TIERS);
  });

  it.each([
    ["null", null, "stored tiers are malformed: tiers: "],
    ["an object", { up_to: null }, "stored tiers are malformed: tiers: "],
    [
      "camelCase keys",
      [{ upTo: null, unitAmountMinor: 1, flatAmountMinor: 0 }],
      '0: Unrecognized keys: "upTo"',
    ],
    ["a missing flat amount", [{ up_to: null, unit_amount_minor: 1 }], "0.flat_amount_minor: "],
    ["a string up_to", [{ up_to: "10", unit_amount_minor: 1, flat_amount_minor: 0 }], "0.up_to: "],
    [
      "a decimal amount",
      [{ up_to: null, unit_amount_minor: 1.5, flat_amount_minor: 0 }],
      "0.unit_amount_minor: ",
    ],
    [
      "a negative amount",
      [{ up_to: null, unit_amount_minor: 1, flat_amount_minor: -1 }],
      "0.flat_amount_minor: ",
    ],
    ["no tiers", [], "stored tiers are malformed: tiers must list at least one tier"],
    [
      "tiers out of order",
      [
        { up_to: 10, unit_amount_minor: 1, flat_amount_minor: 0 },
        { up_to: 10, unit_amount_minor: 1, flat_amount_minor: 0 },
        { up_to: null, unit_amount_minor: 1, flat_amount_minor: 0 },
      ],
      "stored tiers are malformed: tier 2: up_to must be a whole number above 10",
    ],
  ] as const)("refuses %s with a TypeError naming what is wrong", (_name, json, message) => {
    expect(() => tiersFromStored(json)).toThrow(TypeError);
    expect(() => tiersFromStored(json)).toThrow(message);
  });

  it("refuses to write tiers that could not price anything", () => {
    expect(() => tiersToStored([tier(10, 1)])).toThrow(
      new RangeError("tiers cannot be stored: tier 1: up_to must be null: the last tier is open"),
    );
  });
});

describe("priceModelOf", () => {
  const row = { amountMinor: 1_500, tiers: null, packageSize: null };

  it.each([
    ["flat", { ...row, priceModel: "flat" }, { model: "flat", amountMinor: 1_500 }],
    ["per_unit", { ...row, priceModel: "per_unit" }, { model: "per_unit", unitAmountMinor: 1_500 }],
    [
      "package",
      { ...row, priceModel: "package", packageSize: 10 },
      { model: "package", packageAmountMinor: 1_500, packageSize: 10 },
    ],
    [
      "tiered, from the stored jsonb",
      {
        ...row,
        amountMinor: 0,
        priceModel: "tiered",
        tiers: [{ up_to: null, unit_amount_minor: 7, flat_amount_minor: 1 }],
      },
      { model: "tiered", tiers: [tier(null, 7, 1)] },
    ],
    [
      "volume, from tiers already read",
      { ...row, amountMinor: 0, priceModel: "volume", tiers: TIERS },
      { model: "volume", tiers: TIERS },
    ],
  ] as const)("%s", (_name, columns, expected) => {
    expect(priceModelOf(columns)).toEqual(expected);
  });

  it("throws on a row whose stored tiers are malformed", () => {
    expect(() =>
      priceModelOf({ ...row, amountMinor: 0, priceModel: "tiered", tiers: [{ up_to: 5, unit: 1 }] }),
    ).toThrow(TypeError);
  });
});
