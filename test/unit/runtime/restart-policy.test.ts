import { describe, expect, it } from "vitest";
import { nextRestart } from "../../../src/runtime/restart-policy.js";

describe("nextRestart", () => {
  it.each([
    // failuresBefore, startedAt, failedAt, failures, delayMs
    [0, 0, 5_000, 1, 1_000],
    [1, 6_000, 6_500, 2, 2_000],
    [2, 8_500, 8_501, 3, 4_000],
    [3, 12_501, 12_501, 4, 8_000],
    [4, 20_501, 21_000, 5, 16_000],
    [5, 37_000, 37_100, 6, 30_000],
    [6, 67_100, 67_200, 7, 30_000],
    [1_000, 0, 10, 1_001, 30_000],
    // Ran just short of healthy: the doubling goes on.
    [3, 100_000, 159_999, 4, 8_000],
    // Ran healthy for 60 s: back to the first delay.
    [6, 100_000, 160_000, 1, 1_000],
    [0, 100_000, 500_000, 1, 1_000],
  ])(
    "after %i failures, a run from %i failing at %i → failure %i, restart in %i ms",
    (failuresBefore, startedAt, failedAt, failures, delayMs) => {
      expect(nextRestart(failuresBefore, { startedAt, failedAt })).toEqual({ failures, delayMs });
    },
  );

  it("follows the policy it is given", () => {
    const policy = { initialDelayMs: 10, maxDelayMs: 50, healthyAfterMs: 100 };
    expect(nextRestart(2, { startedAt: 0, failedAt: 99 }, policy)).toEqual({ failures: 3, delayMs: 40 });
    expect(nextRestart(3, { startedAt: 0, failedAt: 99 }, policy)).toEqual({ failures: 4, delayMs: 50 });
    expect(nextRestart(3, { startedAt: 0, failedAt: 100 }, policy)).toEqual({ failures: 1, delayMs: 10 });
  });
});
