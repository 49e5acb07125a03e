import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { nextRecordAttempt, RECORD_MAX_ATTEMPTS } from "../../../src/billing/record-retry.js";

const NOW = DateTime.fromISO("2026-02-15T09:00:00Z", { zone: "utc" });
/** The top of the jitter range: the delay's ceiling, less a millisecond at most. */
const highest = () => 0.999_999_999;

describe("nextRecordAttempt", () => {
  it.each([
    // [failed attempts, latest next attempt with the highest draw: 5 min doubling, capped at a day]
    [1, "2026-02-15T09:04:59.999Z"],
    [2, "2026-02-15T09:09:59.999Z"],
    [3, "2026-02-15T09:19:59.999Z"],
    [8, "2026-02-15T19:39:59.999Z"],
    [9, "2026-02-16T06:19:59.999Z"],
    [10, "2026-02-16T08:59:59.999Z"],
    [11, "2026-02-16T08:59:59.999Z"],
  ])("after %i failed attempt(s), at the latest %s", (attempts, latest) => {
    expect(nextRecordAttempt(attempts, NOW, highest)?.toUTC().toISO()).toBe(latest);
  });

  it("spreads retries over the whole delay (full jitter), from now", () => {
    expect(
      nextRecordAttempt(1, NOW, () => 0)
        ?.toUTC()
        .toISO(),
    ).toBe("2026-02-15T09:00:00.000Z");
    expect(
      nextRecordAttempt(1, NOW, () => 0.5)
        ?.toUTC()
        .toISO(),
    ).toBe("2026-02-15T09:02:30.000Z");
  });

  it("gives up after the last attempt", () => {
    expect(RECORD_MAX_ATTEMPTS).toBe(12);
    expect(nextRecordAttempt(12, NOW, highest)).toBeNull();
    expect(nextRecordAttempt(13, NOW, highest)).toBeNull();
  });

  it.each([0, -1, 1.5])("refuses %s attempts", (attempts) => {
    expect(() => nextRecordAttempt(attempts, NOW)).toThrow(RangeError);
  });
});
