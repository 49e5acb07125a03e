import { describe, expect, it } from "vitest";
import {
  add,
  compare,
  decimalText,
  formatDecimal,
  multiply,
  parseDecimal,
  roundHalfUp,
  shift,
  subtract,
} from "../../../src/simulator/v1/invoices-decimal.js";

const d = (text: string) => parseDecimal(text);

describe("decimalText", () => {
  it.each([
    ["1", "1"],
    [" 2.50 ", "2.50"],
    [0.1, "0.1"],
    [12, "12"],
    ["007", "007"],
  ])("accepts %j as %j", (value, text) => {
    expect(decimalText(value)).toBe(text);
  });

  it.each([
    "",
    "-1",
    "+1",
    ".5",
    "5.",
    "1e3",
    "1,5",
    "NaN",
    -1,
    1e21,
    1e-7,
    Number.NaN,
    Infinity,
    null,
    true,
    {},
  ])("refuses %j", (value) => {
    expect(decimalText(value)).toBeUndefined();
  });
});

describe("decimal arithmetic", () => {
  it.each([
    ["1.50", "1.5"],
    ["2.000", "2"],
    ["0.05", "0.05"],
    ["0", "0"],
    ["10", "10"],
  ])("formats %s as %s", (text, formatted) => {
    expect(formatDecimal(d(text))).toBe(formatted);
  });

  it("adds, subtracts, multiplies and shifts exactly", () => {
    expect(formatDecimal(add(d("0.1"), d("0.2")))).toBe("0.3");
    expect(formatDecimal(subtract(d("1"), d("0.001")))).toBe("0.999");
    expect(formatDecimal(multiply(d("1.5"), d("0.15")))).toBe("0.225");
    expect(formatDecimal(shift(d("12.5"), 2))).toBe("0.125");
  });

  it.each([
    ["1", "1.0", 0],
    ["0.99", "1", -1],
    ["99.01", "99", 1],
  ])("compares %s with %s as %i", (a, b, order) => {
    expect(compare(d(a), d(b))).toBe(order);
  });

  it.each([
    ["22.5", 23n],
    ["22.4999", 22n],
    ["0.5", 1n],
    ["0.49", 0n],
    ["7", 7n],
  ])("rounds %s half up to %s", (text, rounded) => {
    expect(roundHalfUp(d(text))).toBe(rounded);
  });
});
