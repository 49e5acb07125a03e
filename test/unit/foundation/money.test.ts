import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CURRENCY_EXPONENTS,
  exponentOf,
  MoneyFormatError,
  toDecimalString,
  toMinor,
  UnknownCurrencyError,
} from "../../../src/money/index.js";

describe("currency exponents", () => {
  it.each([
    ["QAR", 2],
    ["KWD", 3],
    ["BHD", 3],
    ["JPY", 0],
    ["KRW", 0],
    ["USD", 2],
    ["CLF", 4],
  ])("%s has %i decimals", (code, exponent) => {
    expect(exponentOf(code)).toBe(exponent);
  });

  it("refuses unknown and lower-case codes", () => {
    expect(() => exponentOf("XXX")).toThrow(UnknownCurrencyError);
    expect(() => exponentOf("qar")).toThrow(UnknownCurrencyError);
    expect(() => exponentOf("toString")).toThrow(UnknownCurrencyError);
  });

  it("holds the full ISO 4217 list, not just the Gulf", () => {
    expect(Object.keys(CURRENCY_EXPONENTS).length).toBeGreaterThan(150);
  });
});

describe("toMinor", () => {
  it.each([
    ["100", "QAR", 10000],
    ["100.5", "QAR", 10050],
    ["100.50", "QAR", 10050],
    ["0.01", "QAR", 1],
    ["1.234", "KWD", 1234],
    ["500", "JPY", 500],
    ["500.0", "JPY", 500],
    ["007.10", "QAR", 710],
    ["1.2000", "QAR", 120],
  ])("%s %s is %i minor units", (amount, currency, minor) => {
    expect(toMinor(amount, currency)).toBe(minor);
  });

  it("converts JS numbers exactly or refuses them", () => {
    expect(toMinor(10.5, "QAR")).toBe(1050);
    expect(toMinor(0.3, "QAR")).toBe(30);
    expect(() => toMinor(0.1 + 0.2, "QAR")).toThrow(MoneyFormatError);
    expect(() => toMinor(1e-7, "QAR")).toThrow(/more than 2 decimal/);
    expect(() => toMinor(1e21, "QAR")).toThrow(/too large/);
    expect(toMinor(12345.5, "QAR")).toBe(1234550);
  });

  it.each([
    ["1.234", "QAR", /more than 2 decimal/],
    ["1.5", "JPY", /more than 0 decimal/],
    ["-1.00", "QAR", /negative/],
    ["abc", "QAR", /not a decimal/],
    ["", "QAR", /not a decimal/],
    ["1,00", "QAR", /not a decimal/],
    ["1e3", "QAR", /not a decimal/],
    ["99999999999999999999", "QAR", /too large/],
  ])("refuses %j in %s", (amount, currency, message) => {
    expect(() => toMinor(amount, currency)).toThrow(message);
  });

  it("refuses NaN, infinities and unknown currencies", () => {
    expect(() => toMinor(Number.NaN, "QAR")).toThrow(MoneyFormatError);
    expect(() => toMinor(Number.POSITIVE_INFINITY, "QAR")).toThrow(MoneyFormatError);
    expect(() => toMinor("1.00", "ZZZ")).toThrow(UnknownCurrencyError);
  });

  it("accepts negatives only when asked", () => {
    expect(toMinor("-1.25", "QAR", { allowNegative: true })).toBe(-125);
    expect(toMinor("-0.00", "QAR")).toBe(0);
  });
});

describe("toDecimalString", () => {
  it.each([
    [10000, "QAR", "100.00"],
    [1, "QAR", "0.01"],
    [0, "QAR", "0.00"],
    [1234, "KWD", "1.234"],
    [5, "KWD", "0.005"],
    [500, "JPY", "500"],
    [-125, "QAR", "-1.25"],
  ])("%i %s is %s", (minor, currency, text) => {
    expect(toDecimalString(minor, currency)).toBe(text);
  });

  it("refuses fractional and unsafe minor amounts", () => {
    expect(() => toDecimalString(1.5, "QAR")).toThrow(MoneyFormatError);
    expect(() => toDecimalString(2 ** 60, "QAR")).toThrow(MoneyFormatError);
  });
});

describe("round trips", () => {
  const currency = fc.constantFrom(...Object.keys(CURRENCY_EXPONENTS));
  const minor = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

  it("minor → decimal string → minor is the identity", () => {
    fc.assert(
      fc.property(minor, currency, (m, c) => {
        expect(toMinor(toDecimalString(m, c), c, { allowNegative: true })).toBe(m);
      }),
    );
  });

  it("decimal string → minor → decimal string keeps the value", () => {
    const decimal = fc
      .tuple(fc.nat({ max: 10_000_000 }), fc.nat({ max: 99 }))
      .map(([whole, cents]) => `${whole}.${String(cents).padStart(2, "0")}`);
    fc.assert(
      fc.property(decimal, (text) => {
        expect(toDecimalString(toMinor(text, "QAR"), "QAR")).toBe(text);
      }),
    );
  });

  it("a sum of minor amounts formats exactly where float addition would drift", () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 1_000_000 }), { maxLength: 50 }), (parts) => {
        const total = parts.reduce((a, b) => a + b, 0);
        const viaStrings = parts
          .map((p) => toMinor(toDecimalString(p, "KWD"), "KWD"))
          .reduce((a, b) => a + b, 0);
        expect(viaStrings).toBe(total);
      }),
    );
  });
});
