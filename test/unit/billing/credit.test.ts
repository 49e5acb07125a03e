import { describe, expect, it } from "vitest";
import { creditGrantRefusal, MAX_CREDIT_PERIODS, maxCreditMinor } from "../../../src/billing/credit.js";

describe("creditGrantRefusal", () => {
  it.each([
    // [what, amount, balance before, period price, refusal]
    ["part of a payment back", 1_000, 0, 10_000, null],
    ["a whole period's price", 10_000, 0, 10_000, null],
    ["up to twelve periods, balance included", 20_000, 100_000, 10_000, null],
    ["one fils past twelve periods", 20_001, 100_000, 10_000, "amount_too_large"],
    ["10000.00 typed for 100.00", 1_000_000, 0, 10_000, "amount_too_large"],
    ["zero", 0, 0, 10_000, "amount_not_positive"],
    ["negative", -500, 0, 10_000, "amount_not_positive"],
    ["a fraction of a minor unit", 0.5, 0, 10_000, "amount_not_positive"],
    ["KWD, three decimals: 1.500 on a 12.000 plan", 1_500, 0, 12_000, null],
  ] as const)("%s", (_what, amountMinor, balanceMinor, periodPriceMinor, refusal) => {
    expect(creditGrantRefusal({ amountMinor, balanceMinor, periodPriceMinor })).toBe(refusal);
  });

  it("caps the balance at twelve periods of the plan's price", () => {
    expect(MAX_CREDIT_PERIODS).toBe(12);
    expect(maxCreditMinor(10_000)).toBe(120_000);
  });
});
