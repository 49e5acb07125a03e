import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exponentialBackoff } from "../../../src/billing/index.js";

describe("exponentialBackoff", () => {
  it.each([
    [0, 100, 10_000, 100],
    [1, 100, 10_000, 200],
    [2, 100, 10_000, 400],
    [6, 100, 10_000, 6_400],
    [7, 100, 10_000, 10_000],
    [50, 100, 10_000, 10_000],
    [5_000, 100, 10_000, 10_000],
    [3, 0, 10_000, 0],
    [3, 250, 0, 0],
  ])("without jitter, attempt %i (base %i, cap %i) waits %i ms", (attempt, baseMs, capMs, expected) => {
    expect(exponentialBackoff({ attempt, baseMs, capMs, jitter: "none" })).toBe(expected);
  });

  it.each([
    [0, 0],
    [0.5, 200],
    [0.999, 399],
  ])("with full jitter, random() = %d gives %i ms of a 400 ms ceiling", (draw, expected) => {
    expect(
      exponentialBackoff({ attempt: 2, baseMs: 100, capMs: 10_000, jitter: "full", random: () => draw }),
    ).toBe(expected);
  });

  it.each([
    ["a negative attempt", { attempt: -1 }],
    ["a fractional attempt", { attempt: 1.5 }],
    ["a negative base", { baseMs: -1 }],
    ["a NaN cap", { capMs: Number.NaN }],
    ["random() = 1", { random: () => 1 }],
    ["random() < 0", { random: () => -0.1 }],
    ["random() = NaN", { random: () => Number.NaN }],
  ])("refuses %s", (_, overrides) => {
    const options = { attempt: 1, baseMs: 100, capMs: 1_000, jitter: "full" as const, random: () => 0.5 };
    expect(() => exponentialBackoff({ ...options, ...overrides })).toThrow(RangeError);
  });

  it("stays within [0, min(cap, base × 2^attempt)] and is an integer", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 0, max: 3_600_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.constantFrom("full" as const, "none" as const),
        (attempt, baseMs, capMs, draw, jitter) => {
          const delay = exponentialBackoff({ attempt, baseMs, capMs, jitter, random: () => draw });
          const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 1000));
          expect(Number.isInteger(delay)).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });

  it("without jitter never decreases as attempts grow", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 10_000 }),
        (attempt, baseMs) => {
          const options = { baseMs, capMs: 1_000_000, jitter: "none" as const };
          expect(exponentialBackoff({ ...options, attempt: attempt + 1 })).toBeGreaterThanOrEqual(
            exponentialBackoff({ ...options, attempt }),
          );
        },
      ),
    );
  });
});
