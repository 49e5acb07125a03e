import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatAmount } from "../../../src/messages/render/index.js";
import { MoneyFormatError, toMinor, UnknownCurrencyError } from "../../../src/money/index.js";

describe("formatAmount in English: ISO code first, exact from minor units", () => {
  it.each([
    [0, "QAR", "QAR 0.00"],
    [5, "QAR", "QAR 0.05"],
    [100, "QAR", "QAR 1.00"],
    [10000, "QAR", "QAR 100.00"],
    [123450, "QAR", "QAR 1,234.50"],
    [100000000, "QAR", "QAR 1,000,000.00"],
    [Number.MAX_SAFE_INTEGER, "QAR", "QAR 90,071,992,547,409.91"],
    [-250, "QAR", "QAR -2.50"],
    [-123456789, "QAR", "QAR -1,234,567.89"],
    [5, "KWD", "KWD 0.005"],
    [1234567, "KWD", "KWD 1,234.567"],
    [1000, "BHD", "BHD 1.000"],
    [0, "JPY", "JPY 0"],
    [999, "JPY", "JPY 999"],
    [1000, "JPY", "JPY 1,000"],
    [1234567, "JPY", "JPY 1,234,567"],
    [12345678, "CLF", "CLF 1,234.5678"],
    [199, "USD", "USD 1.99"],
  ])("%i %s is %s", (minor, currency, expected) => {
    expect(formatAmount({ minor, currency }, "en")).toBe(expected);
  });
});

describe("formatAmount in Arabic: Western digits, number first, Gulf currencies in Arabic", () => {
  it.each([
    [0, "QAR", "0.00 ر.ق."],
    [5, "QAR", "0.05 ر.ق."],
    [123450, "QAR", "1,234.50 ر.ق."],
    [100000000, "QAR", "1,000,000.00 ر.ق."],
    [1000, "SAR", "10.00 ر.س."],
    [1500, "AED", "15.00 د.إ."],
    [5, "KWD", "0.005 د.ك."],
    [1234567, "KWD", "1,234.567 د.ك."],
    [1234567, "BHD", "1,234.567 د.ب."],
    [1000, "OMR", "1.000 ر.ع."],
    [2500, "USD", "25.00 USD"],
    [1234567, "JPY", "1,234,567 JPY"],
  ])("%i %s is %s", (minor, currency, expected) => {
    expect(formatAmount({ minor, currency }, "ar")).toBe(expected);
  });
});

describe("formatAmount refuses what is not money", () => {
  it("refuses a fractional count of minor units instead of rounding it", () => {
    expect(() => formatAmount({ minor: 1.5, currency: "QAR" }, "en")).toThrow(MoneyFormatError);
    expect(() => formatAmount({ minor: Number.NaN, currency: "QAR" }, "ar")).toThrow(MoneyFormatError);
  });

  it("refuses codes that are not ISO 4217, including object keys", () => {
    expect(() => formatAmount({ minor: 1, currency: "XXX" }, "en")).toThrow(UnknownCurrencyError);
    expect(() => formatAmount({ minor: 1, currency: "qar" }, "ar")).toThrow(UnknownCurrencyError);
    expect(() => formatAmount({ minor: 1, currency: "toString" }, "ar")).toThrow(UnknownCurrencyError);
  });
});

describe("formatAmount round trip", () => {
  it("reads back as the same minor units, grouped by three", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom("QAR", "KWD", "JPY", "CLF"),
        (minor, currency) => {
          const text = formatAmount({ minor, currency }, "en");
          const number = text.slice(currency.length + 1);
          expect(number).toMatch(/^-?\d{1,3}(,\d{3})*(\.\d+)?$/);
          expect(toMinor(number.replaceAll(",", ""), currency, { allowNegative: true })).toBe(minor);
          expect(formatAmount({ minor, currency }, "ar").startsWith(`${number} `)).toBe(true);
        },
      ),
    );
  });
});
