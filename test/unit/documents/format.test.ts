import { describe, expect, it } from "vitest";
import { amountText, dateText, rateText } from "../../../src/documents/format.js";

describe("amountText", () => {
  it.each([
    [123_450, "QAR", "1,234.50 QAR"],
    [0, "QAR", "0.00 QAR"],
    [1, "QAR", "0.01 QAR"],
    [99_999, "QAR", "999.99 QAR"],
    [100_000, "QAR", "1,000.00 QAR"],
    [123_456_789_012, "QAR", "1,234,567,890.12 QAR"],
    [-14_500, "QAR", "-145.00 QAR"],
    [-1, "QAR", "-0.01 QAR"],
    [1_234_567, "KWD", "1,234.567 KWD"],
    [5, "KWD", "0.005 KWD"],
    [1_234_567, "JPY", "1,234,567 JPY"],
    [999, "JPY", "999 JPY"],
    [-1_000, "JPY", "-1,000 JPY"],
  ])("%d %s → %s", (minor, currency, printed) => {
    expect(amountText(minor, currency)).toBe(printed);
  });
});

describe("rateText", () => {
  it.each([
    [1_500, "15%"],
    [500, "5%"],
    [1_250, "12.5%"],
    [1, "0.01%"],
    [10, "0.1%"],
    [10_000, "100%"],
  ])("%d bp → %s", (rate, printed) => {
    expect(rateText(rate)).toBe(printed);
  });
});

describe("dateText", () => {
  // 21:30 UTC on 4 January is already 5 January in Doha (UTC+3).
  const instant = new Date("2025-01-04T21:30:00Z");

  it("shows the day on the document's calendar, in each style", () => {
    expect(dateText(instant, "Asia/Qatar", "en")).toBe("5 Jan 2025");
    expect(dateText(instant, "Asia/Qatar", "ar")).toBe("5 يناير 2025");
    expect(dateText(instant, "Asia/Qatar", "iso")).toBe("2025-01-05");
    expect(dateText(instant, "UTC", "iso")).toBe("2025-01-04");
  });

  it("refuses a zone it does not know rather than print a wrong day", () => {
    expect(() => dateText(instant, "Mars/Olympus", "en")).toThrow(RangeError);
  });
});
