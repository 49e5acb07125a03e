import { describe, expect, it } from "vitest";
import { type BreakerCounts, type BreakerThresholds, breakerVerdict } from "../../../src/billing/index.js";

const thresholds: BreakerThresholds = {
  tokenRefused: 10,
  notFound: 10,
  notFoundShare: 0.9,
  authRefused: 3,
  statusCheckFailed: 10,
};
const counts = (partial: Partial<BreakerCounts>): BreakerCounts => ({
  token_refused: 0,
  not_found: 0,
  auth_refused: 0,
  found: 0,
  status_check_failed: 0,
  ...partial,
});

describe("breakerVerdict", () => {
  it.each([
    // counts in the window → the signal that trips, or null
    [{}, null],
    [{ token_refused: 9 }, null],
    [{ token_refused: 10 }, "token_refused"],
    [{ auth_refused: 2 }, null],
    [{ auth_refused: 3 }, "auth_refused"],
    [{ not_found: 9 }, null],
    [{ not_found: 10 }, "not_found"], // nothing found at all: a gateway that forgot
    [{ not_found: 10, found: 1 }, "not_found"], // 10 of 11 = 91 %
    [{ not_found: 18, found: 2 }, "not_found"], // exactly 90 %
    [{ not_found: 30, found: 40 }, null], // a flaky gateway: 5xx and hangs, but it finds what it took
    [{ not_found: 15, found: 20, token_refused: 10 }, "token_refused"],
    [{ status_check_failed: 9 }, null],
    [{ status_check_failed: 10 }, "status_check_failed"], // CheckStatus answers nothing at all
    [{ status_check_failed: 10, found: 6, not_found: 4 }, "status_check_failed"], // half failed
    [{ status_check_failed: 10, found: 11 }, null], // a flaky status check: most answers come back
    [{ status_check_failed: 10, not_found: 11 }, "not_found"],
  ] as const)("%o → %s", (partial, signal) => {
    const verdict = breakerVerdict(counts(partial), thresholds, 300);
    expect(verdict.trip ? verdict.signal : null).toBe(signal);
  });

  it("says why, with the count, the window and the threshold", () => {
    expect(breakerVerdict(counts({ token_refused: 12 }), thresholds, 300)).toEqual({
      trip: true,
      signal: "token_refused",
      reason:
        "12 different cards refused with -7 (no recurring or autosave payment for the token) within 300 s (threshold 10)",
    });
  });

  it("says why the status check tripped it", () => {
    expect(breakerVerdict(counts({ status_check_failed: 12, found: 2 }), thresholds, 300)).toEqual({
      trip: true,
      signal: "status_check_failed",
      reason:
        "12 status checks of payments we sent failed (an error, no reply or a malformed reply) and 2 answered within 300 s (threshold 10)",
    });
  });

  it("never trips on a signal whose threshold is 0", () => {
    const off = { tokenRefused: 0, notFound: 0, notFoundShare: 0.9, authRefused: 0, statusCheckFailed: 0 };
    expect(
      breakerVerdict(
        counts({ token_refused: 1000, not_found: 1000, auth_refused: 1000, status_check_failed: 1000 }),
        off,
        300,
      ),
    ).toEqual({
      trip: false,
    });
  });
});
