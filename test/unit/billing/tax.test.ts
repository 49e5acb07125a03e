import { describe, expect, it } from "vitest";
import { formatDocumentNumber, includedTax } from "../../../src/billing/tax.js";

describe("includedTax", () => {
  it.each([
    // [what, amount in minor units, rate in basis points, tax included]
    ["no tax", 11_500, 0, 0],
    ["15 % of 115.00 QAR", 11_500, 1_500, 1_500],
    ["15 % of 100.00 QAR (1,304.3… fils rounds down)", 10_000, 1_500, 1_304],
    ["5 % of 105.00 QAR", 10_500, 500, 500],
    ["5 % of 99.99 QAR (476.1… fils rounds down)", 9_999, 500, 476],
    ["12.5 % of 112.50 QAR", 11_250, 1_250, 1_250],
    ["12.5 % of 10.00 QAR (111.1… fils rounds down)", 1_000, 1_250, 111],
    ["1 fils at 15 % (0.13 fils)", 1, 1_500, 0],
    ["4 fils at 15 % (0.52 fils rounds up)", 4, 1_500, 1],
    ["1 fils at 100 %: exactly half a fils rounds up", 1, 10_000, 1],
    ["3 fils at 100 %: 1.5 fils rounds up", 3, 10_000, 2],
    ["nothing paid", 0, 1_500, 0],
    ["KWD, three decimals: 15 % of 11.500", 11_500, 1_500, 1_500],
    ["KWD, three decimals: 5 % of 1.234 (58.7… rounds up)", 1_234, 500, 59],
    ["JPY, no decimals: 10 % of 1,100 yen", 1_100, 1_000, 100],
    ["JPY, no decimals: 10 % of 1,000 yen (90.9… rounds up)", 1_000, 1_000, 91],
    ["a large amount stays exact", 9_007_199_254_740_991, 1_500, 1_174_852_076_705_347],
  ])("%s", (_what, amount, rate, tax) => {
    expect(includedTax(amount, rate)).toBe(tax);
  });

  it.each([-1, 10_001, 12.5, Number.NaN])("refuses the rate %s", (rate) => {
    expect(() => includedTax(10_000, rate)).toThrow(RangeError);
  });

  it.each([-1, 1.5])("refuses the amount %s", (amount) => {
    expect(() => includedTax(amount, 1_500)).toThrow(RangeError);
  });
});

describe("formatDocumentNumber", () => {
  it.each([
    ["receipt", 42, "RCT-000042"],
    ["credit_note", 7, "CN-000007"],
    ["receipt", 1, "RCT-000001"],
    ["receipt", 999_999, "RCT-999999"],
    ["receipt", 1_000_000, "RCT-1000000"],
    ["credit_note", 12_345_678, "CN-12345678"],
  ] as const)("%s %d → %s", (series, number, printed) => {
    expect(formatDocumentNumber(series, number)).toBe(printed);
  });

  it.each([0, -3, 1.5])("refuses the number %s", (number) => {
    expect(() => formatDocumentNumber("receipt", number)).toThrow(RangeError);
  });
});
