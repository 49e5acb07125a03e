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
