import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlanInputError, parsePlanInput, planInputSchema, planInterval } from "../../../src/billing/index.js";
import { CURRENCY_EXPONENTS, toDecimalString } from "../../../src/money/index.js";

const base = { name: "Gold", amount: "100.00", currency: "QAR", interval: "month" };

/** The messages of a refused body, by field. */
function errorsOf(input: unknown): Record<string, string> {
  try {
    parsePlanInput(input);
  } catch (error) {
    if (!(error instanceof PlanInputError)) throw error;
    return Object.fromEntries(error.issues.map((issue) => [issue.field, issue.message]));
  }
  throw new Error("expected the plan to be refused");
}

describe("parsePlanInput: accepted bodies", () => {
  it("applies the defaults", () => {
    expect(parsePlanInput(base)).toEqual({
      name: "Gold",
      amount: { minor: 10_000, currency: "QAR" },
      price: { model: "flat", amountMinor: 10_000 },
      intervalUnit: "month",
      intervalCount: 1,
      trialDays: 0,
      productId: null,
      billingMode: "recurring",
      collectionMethod: "charge_automatically",
      trialWithoutCard: false,
    });
  });

  it("takes every field", () => {
    expect(
      parsePlanInput({
        name: "  Quarterly box  ",
        amount: "12.5",
        currency: "KWD",
        interval: "month",
        interval_count: 3,
        trial_days: 14,
        product_id: "42",
        billing_mode: "autosave",
        collection_method: "send_payment_link",
        trial_without_card: true,
      }),
    ).toEqual({
      name: "Quarterly box",
      amount: { minor: 12_500, currency: "KWD" },
      price: { model: "flat", amountMinor: 12_500 },
      intervalUnit: "month",
      intervalCount: 3,
      trialDays: 14,
      productId: "42",
      billingMode: "autosave",
      collectionMethod: "send_payment_link",
      trialWithoutCard: true,
    });
  });

  it.each([
    ["100", "QAR", 10_000],
    ["0.01", "QAR", 1],
    ["99.990", "QAR", 9_999],
    ["1.234", "BHD", 1_234],
    ["500", "JPY", 500],
    ["1.2345", "CLF", 12_345],
  ])("converts %s %s exactly to %i minor units", (amount, currency, minor) => {
    expect(parsePlanInput({ ...base, amount, currency }).amount).toEqual({ minor, currency });
  });

  it.each([
    ["day", 1],
    ["week", 2],
    ["year", 1],
    ["day", 365],
  ])("accepts interval %s × %i", (interval, count) => {
    const plan = parsePlanInput({ ...base, interval, interval_count: count });
    expect(planInterval(plan)).toEqual({ unit: interval, count });
  });

  it("accepts the trial bounds 0 and 730 and a null product", () => {
    expect(parsePlanInput({ ...base, trial_days: 0 }).trialDays).toBe(0);
    expect(parsePlanInput({ ...base, trial_days: 730 }).trialDays).toBe(730);
    expect(parsePlanInput({ ...base, product_id: null }).productId).toBeNull();
  });
});

describe("parsePlanInput: refused bodies name the field", () => {
  it.each([
    [{ ...base, name: "" }, "name", "name must not be empty"],
    [{ ...base, name: "   " }, "name", "name must not be empty"],
    [{ ...base, name: "x".repeat(201) }, "name", "name must be at most 200 characters"],
    [{ ...base, name: 7 }, "name", "name must be a string"],
    [{ ...base, amount: 100 }, "amount", 'amount must be a decimal string such as "100.00"'],
    [{ ...base, amount: "10.005" }, "amount", "more than 2 decimal place(s) allowed for QAR"],
    [{ ...base, amount: "1.5", currency: "JPY" }, "amount", "more than 0 decimal place(s) allowed for JPY"],
    [{ ...base, amount: "ten" }, "amount", 'amount "ten" is not a decimal number such as "100.00"'],
    [{ ...base, amount: " 10.00" }, "amount", 'amount " 10.00" has spaces around it'],
    [{ ...base, amount: "10.00\t" }, "amount", 'amount "10.00\\t" has spaces around it'],
    [{ ...base, amount: "" }, "amount", 'amount "" is not a decimal number'],
    [{ ...base, amount: "1e3" }, "amount", "is not a decimal number"],
    [{ ...base, amount: "-5" }, "amount", "must not be negative"],
    [{ ...base, amount: "0.00" }, "amount", "amount must be greater than zero"],
    [{ ...base, amount: "99999999999999999" }, "amount", "is too large"],
    [{ ...base, currency: "qar" }, "currency", "currency must be an ISO 4217 code such as QAR"],
    [{ ...base, currency: "XXX" }, "currency", "currency must be an ISO 4217 code such as QAR"],
    [{ ...base, currency: undefined }, "currency", "currency must be a string"],
    [{ ...base, interval: "fortnight" }, "interval", "interval must be one of day, week, month, year"],
    [{ ...base, interval_count: 0 }, "interval_count", "interval_count must be at least 1"],
    [{ ...base, interval_count: 366 }, "interval_count", "interval_count must be at most 365"],
    [{ ...base, interval_count: 1.5 }, "interval_count", "interval_count must be a whole number"],
    [{ ...base, interval_count: "3" }, "interval_count", "interval_count must be a number"],
    [{ ...base, trial_days: -1 }, "trial_days", "trial_days must be at least 0"],
    [{ ...base, trial_days: 731 }, "trial_days", "trial_days must be at most 730"],
    [{ ...base, product_id: "" }, "product_id", "product_id must not be empty"],
    [{ ...base, product_id: 42 }, "product_id", "product_id must be a string or null"],
    [{ ...base, billing_mode: "once" }, "billing_mode", "billing_mode must be one of recurring, autosave"],
    [
      { ...base, collection_method: "invoice" },
      "collection_method",
      "collection_method must be one of charge_automatically, send_payment_link",
    ],
    [
      { ...base, trial_without_card: "yes" },
      "trial_without_card",
      "trial_without_card must be true or false",
    ],
    [
      { ...base, trial_without_card: true },
      "trial_without_card",
      "trial_without_card needs trial_days of at least 1",
    ],
    [{ ...base, trial_day: 14 }, "", "unknown field(s): trial_day"],
  ])("%j → %s: %s", (input, field, message) => {
    expect(errorsOf(input)[field]).toContain(message);
  });

  it("reports the amount with the other bad fields, also when it fails only in its currency", () => {
    expect(
      Object.keys(errorsOf({ name: "", amount: "x", currency: "QAR", interval: "hour" })).sort(),
    ).toEqual(["amount", "interval", "name"]);
    expect(errorsOf({ ...base, amount: "10.505", interval: "hour", trial_days: -1 })).toEqual({
      amount: expect.stringContaining("more than 2 decimal place(s) allowed for QAR"),
      interval: "interval must be one of day, week, month, year",
      trial_days: "trial_days must be at least 0",
    });
    // Without a usable currency the amount is judged on its text alone.
    expect(errorsOf({ ...base, amount: "1.2345", currency: "XXX1" })).toEqual({
      currency: "currency must be an ISO 4217 code such as QAR",
    });
  });

  it("reports every problem at once, and the error message lists them", () => {
    const call = () => parsePlanInput({ name: "", amount: "1", currency: "QAR", interval: "hour" });
    expect(call).toThrow(PlanInputError);
    expect(call).toThrow(
      "invalid plan: name must not be empty; interval must be one of day, week, month, year",
    );
  });
});

describe("parsePlanInput: the gateway account's currencies", () => {
  const currencies = ["QAR", "USD"];

  it("accepts a currency the account takes", () => {
    expect(parsePlanInput({ ...base, currency: "USD", amount: "5" }, { currencies }).amount).toEqual({
      minor: 500,
      currency: "USD",
    });
  });

  it("refuses another, naming the currencies that are allowed and where they are set", () => {
    expect(() => parsePlanInput({ ...base, currency: "KWD", amount: "1.000" }, { currencies })).toThrow(
      expect.objectContaining({
        issues: [
          {
            field: "currency",
            message:
              "currency KWD is not one the gateway account takes; allowed: QAR, USD (GATEWAY_CURRENCIES)",
          },
        ],
      }),
    );
  });
});

describe("plan amount properties", () => {
  it("any positive minor amount written as a decimal string comes back exactly", () => {
    const currencies = Object.keys(CURRENCY_EXPONENTS);
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (currency, minor) => {
          const amount = toDecimalString(minor, currency);
          const parsed = planInputSchema().parse({ ...base, amount, currency });
          expect(parsed.amount).toEqual({ minor, currency });
        },
      ),
    );
  });
});

describe("parsePlanInput: price models", () => {
  // Any model but flat needs autosave: a recurring token is charged its enrolled amount.
  const autosave = { ...base, billing_mode: "autosave" } as const;
  const { amount: _amount, ...noAmount } = autosave;
  const tiers = [
    { up_to: 10, unit_amount: "5" },
    { up_to: 50, unit_amount: "4.5", flat_amount: "10" },
    { up_to: null, unit_amount: "0" },
  ];

  it.each([
    [{ ...autosave, price_model: "flat" }, 10_000, { model: "flat", amountMinor: 10_000 }],
    [
      { ...autosave, price_model: "per_unit", amount: "2.5" },
      250,
      { model: "per_unit", unitAmountMinor: 250 },
    ],
    [
      { ...autosave, price_model: "package", amount: "15", package_size: 10 },
      1_500,
      { model: "package", packageAmountMinor: 1_500, packageSize: 10 },
    ],
    [
      { ...noAmount, price_model: "tiered", tiers },
      0,
      {
        model: "tiered",
        tiers: [
          { upTo: 10, unitAmountMinor: 500, flatAmountMinor: 0 },
          { upTo: 50, unitAmountMinor: 450, flatAmountMinor: 1_000 },
          { upTo: null, unitAmountMinor: 0, flatAmountMinor: 0 },
        ],
      },
    ],
    [
      {
        ...noAmount,
        price_model: "volume",
        tiers: [{ up_to: null, unit_amount: "0.010", flat_amount: "0.00" }],
      },
      0,
      { model: "volume", tiers: [{ upTo: null, unitAmountMinor: 1, flatAmountMinor: 0 }] },
    ],
    [
      { ...noAmount, currency: "KWD", price_model: "tiered", tiers: [{ up_to: null, unit_amount: "1.234" }] },
      0,
      { model: "tiered", tiers: [{ upTo: null, unitAmountMinor: 1_234, flatAmountMinor: 0 }] },
    ],
  ])("%j → amount %i, %j", (input, amountMinor, price) => {
    const plan = parsePlanInput(input);
    expect(plan.price).toEqual(price);
    expect(plan.amount).toEqual({ minor: amountMinor, currency: input.currency });
  });

  it.each([
    [
      { ...autosave, price_model: "hourly" },
      "price_model",
      "price_model must be one of flat, per_unit, tiered, volume, package",
    ],
    [noAmount, "amount", "amount must be given with price_model flat (the price of one period)"],
    [
      { ...noAmount, price_model: "per_unit" },
      "amount",
      "amount must be given with price_model per_unit (the price of one unit)",
    ],
    [
      { ...noAmount, price_model: "package", package_size: 10 },
      "amount",
      "amount must be given with price_model package (the price of one package)",
    ],
    [{ ...autosave, price_model: "package", amount: "0" }, "amount", "amount must be greater than zero"],
    [
      { ...autosave, price_model: "tiered", tiers },
      "amount",
      "amount must not be given with price_model tiered: its tiers set the price",
    ],
    [{ ...noAmount, price_model: "volume" }, "tiers", "tiers must be given with price_model volume"],
    [
      { ...autosave, tiers },
      "tiers",
      "tiers must not be given with price_model flat: only tiered and volume take them",
    ],
    [{ ...noAmount, price_model: "tiered", tiers: [] }, "tiers", "tiers must list at least one tier"],
    [{ ...noAmount, price_model: "tiered", tiers: "10:5" }, "tiers", "tiers must be a list of tiers"],
    [
      { ...autosave, price_model: "package" },
      "package_size",
      "package_size must be given with price_model package",
    ],
    [
      { ...autosave, package_size: 10 },
      "package_size",
      "package_size must not be given with price_model flat: only package takes it",
    ],
    [
      { ...autosave, price_model: "package", package_size: 0 },
      "package_size",
      "package_size must be at least 1",
    ],
    [
      { ...autosave, price_model: "package", package_size: 2.5 },
      "package_size",
      "package_size must be a whole number",
    ],
    [
      { ...autosave, price_model: "package", package_size: "10" },
      "package_size",
      "package_size must be a number",
    ],
    [
      { ...autosave, price_model: "package", package_size: 2_147_483_648 },
      "package_size",
      "package_size must be at most 2147483647",
    ],
    [
      {
        ...noAmount,
        price_model: "tiered",
        tiers: [
          { up_to: 0, unit_amount: "1" },
          { up_to: null, unit_amount: "1" },
        ],
      },
      "tiers.0.up_to",
      "tiers.0.up_to must be at least 1",
    ],
    [
      {
        ...noAmount,
        price_model: "tiered",
        tiers: [
          { up_to: 2.5, unit_amount: "1" },
          { up_to: null, unit_amount: "1" },
        ],
      },
      "tiers.0.up_to",
      "tiers.0.up_to must be a whole number, or null for the last (open) tier",
    ],
    [
      { ...noAmount, price_model: "tiered", tiers: [{ unit_amount: "1" }] },
      "tiers.0.up_to",
      "tiers.0.up_to must be a whole number, or null for the last (open) tier",
    ],
    [
      {
        ...noAmount,
        price_model: "tiered",
        tiers: [
          { up_to: 10, unit_amount: "1" },
          { up_to: 10, unit_amount: "1" },
          { up_to: null, unit_amount: "1" },
        ],
      },
      "tiers.1.up_to",
      "tiers.1.up_to must be a whole number above 10",
    ],
    [
      {
        ...noAmount,
        price_model: "volume",
        tiers: [
          { up_to: null, unit_amount: "1" },
          { up_to: null, unit_amount: "1" },
        ],
      },
      "tiers.0.up_to",
      "tiers.0.up_to must not be null: only the last tier is open",
    ],
    [
      { ...noAmount, price_model: "volume", tiers: [{ up_to: 10, unit_amount: "1" }] },
      "tiers.0.up_to",
      "tiers.0.up_to must be null: the last tier is open",
    ],
    [
      { ...noAmount, price_model: "tiered", tiers: [{ up_to: null, unit_amount: "10.505" }] },
      "tiers.0.unit_amount",
      'tiers.0.unit_amount "10.505" has more than 2 decimal place(s) allowed for QAR',
    ],
    [
      { ...noAmount, price_model: "tiered", tiers: [{ up_to: null, unit_amount: "1", flat_amount: "-1" }] },
      "tiers.0.flat_amount",
      'tiers.0.flat_amount "-1" must not be negative',
    ],
    [
      { ...noAmount, price_model: "tiered", tiers: [{ up_to: null, unit_amount: " 1" }] },
      "tiers.0.unit_amount",
      'tiers.0.unit_amount " 1" has spaces around it',
    ],
    [
      { ...noAmount, price_model: "tiered", tiers: [{ up_to: null, unit_amount: 1 }] },
      "tiers.0.unit_amount",
      'tiers.0.unit_amount must be a decimal string such as "100.00"',
    ],
    [
      { ...noAmount, price_model: "tiered", tiers: [{ up_to: null, unit_amount: "99999999999999999" }] },
      "tiers.0.unit_amount",
      "is too large",
    ],
    [
      { ...noAmount, price_model: "tiered", tiers: [{ up_to: null, unit_amount: "1", unit: 2 }] },
      "tiers.0",
      "unknown field(s): unit",
    ],
  ])("%j → %s: %s", (input, field, message) => {
    expect(errorsOf(input)[field]).toContain(message);
  });

  it.each([
    ["per_unit", { ...base, price_model: "per_unit" }],
    ["tiered", { name: "Gold", currency: "QAR", interval: "month", price_model: "tiered", tiers }],
    ["package", { ...base, billing_mode: "recurring", price_model: "package", package_size: 5 }],
  ])("refuses %s with billing_mode recurring (the default), pointing to autosave", (model, input) => {
    expect(errorsOf(input)).toEqual({
      price_model: `price_model ${model} needs billing_mode "autosave": a "recurring" card token is charged the fixed amount it was enrolled for, so only a flat price fits it; with "autosave" (or a payment link) each charge carries its own amount`,
    });
  });

  it("reports every tier problem at once, with the plan's other bad fields", () => {
    expect(
      errorsOf({
        ...noAmount,
        name: "",
        price_model: "tiered",
        tiers: [
          { up_to: 100, unit_amount: "10.505" },
          { up_to: 5, unit_amount: "x" },
          { up_to: 7, unit_amount: "1", flat_amount: "0.001" },
        ],
        package_size: 3,
      }),
    ).toEqual({
      name: "name must not be empty",
      "tiers.0.unit_amount": expect.stringContaining("more than 2 decimal place(s) allowed for QAR"),
      "tiers.1.unit_amount": 'tiers.1.unit_amount "x" is not a decimal number such as "100.00"',
      "tiers.1.up_to": "tiers.1.up_to must be a whole number above 100",
      "tiers.2.flat_amount": expect.stringContaining("more than 2 decimal place(s) allowed for QAR"),
      "tiers.2.up_to": "tiers.2.up_to must be null: the last tier is open",
      package_size: "package_size must not be given with price_model tiered: only package takes it",
    });
  });

  it("judges tier amounts on their text alone without a usable currency", () => {
    expect(
      errorsOf({
        ...noAmount,
        currency: "XXX1",
        price_model: "tiered",
        tiers: [{ up_to: null, unit_amount: "1.2345" }],
      }),
    ).toEqual({ currency: "currency must be an ISO 4217 code such as QAR" });
  });

  it("names the whole path of a nested field in the error's message", () => {
    expect(() =>
      parsePlanInput({ ...noAmount, price_model: "volume", tiers: [{ up_to: 5, unit_amount: "1" }] }),
    ).toThrow("invalid plan: tiers.0.up_to must be null: the last tier is open");
  });
});
