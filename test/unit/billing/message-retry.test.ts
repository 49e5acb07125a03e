import { describe, expect, it } from "vitest";
import { messageRetryDelay } from "../../../src/billing/index.js";

describe("messageRetryDelay", () => {
  it.each([
    [1, 60_000],
    [2, 120_000],
    [3, 240_000],
    [7, 64 * 60_000],
    [9, 256 * 60_000],
    [10, 6 * 60 * 60_000],
    [50, 6 * 60 * 60_000],
  ])("after failed attempt %i waits %i ms", (attempt, expected) => {
    expect(messageRetryDelay(attempt)).toBe(expected);
  });

  it.each([0, -1, 1.5])("refuses attempt %d", (attempt) => {
    expect(() => messageRetryDelay(attempt)).toThrow(RangeError);
  });
});
