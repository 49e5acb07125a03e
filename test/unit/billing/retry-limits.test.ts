import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findRetryLimitViolation } from "../../../src/billing/index.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const days = (...offsets: number[]) => offsets.map((d) => d * DAY);

describe("findRetryLimitViolation", () => {
  it.each([
    ["the default schedule", days(0, 1, 3, 5, 7)],
    ["no retries at all", days(0)],
    ["20 Visa retries in 30 days", days(0, ...Array.from({ length: 20 }, (_, i) => i + 1))],
    ["10 attempts in 24 hours", Array.from({ length: 10 }, (_, i) => i * 2 * HOUR)],
    ["retries every third day for four months", days(...Array.from({ length: 40 }, (_, i) => 3 * i))],
  ])("accepts %s", (_, schedule) => {
    expect(findRetryLimitViolation(schedule)).toBeNull();
  });

  it("refuses 21 Visa retries in 30 days and says where", () => {
    const schedule = days(0, ...Array.from({ length: 21 }, (_, i) => i + 1));
    const violation = findRetryLimitViolation(schedule);
    expect(violation?.rule.network).toBe("Visa");
    expect(violation?.count).toBe(21);
    expect(violation?.message).toBe(
      "Visa allows at most 20 retries per card and amount in 30 days, but this schedule makes 21 retries between day 1 and day 21 after the first failure",
    );
  });

  it("refuses 11 attempts in 24 hours (Mastercard)", () => {
    const schedule = Array.from({ length: 11 }, (_, i) => i * 2 * HOUR);
    const violation = findRetryLimitViolation(schedule);
    expect(violation?.rule).toMatchObject({ network: "Mastercard", max: 10, window: "24 hours" });
    expect(violation?.message).toContain("makes 11 attempts between hour 0 and hour 20");
  });

  it("counts an attempt exactly one window later in the same window", () => {
    // 11 attempts, the last one exactly 24 hours after the first.
    const schedule = [...Array.from({ length: 10 }, (_, i) => i * HOUR), 24 * HOUR];
    expect(findRetryLimitViolation(schedule)?.rule.window).toBe("24 hours");
    expect(findRetryLimitViolation([...schedule.slice(0, 10), 24 * HOUR + 1])).toBeNull();
  });

  it("reports Visa for 36 attempts in 30 days: its 20 retries are stricter than Mastercard's 35", () => {
    const dense = Array.from({ length: 36 }, (_, i) => (i * 30 * DAY) / 35);
    expect(findRetryLimitViolation(dense)?.rule.network).toBe("Visa");
  });

  it("finds the densest window even when it is not at the start", () => {
    const schedule = [0, 40 * DAY, ...Array.from({ length: 21 }, (_, i) => 41 * DAY + i * DAY)];
    expect(findRetryLimitViolation(schedule)?.message).toContain(
      "makes 22 retries between day 40 and day 61",
    );
  });

  it("agrees with a brute-force count of every window", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 90 * DAY }), { maxLength: 60 }), (raw) => {
        const schedule = [0, ...raw.sort((a, b) => a - b)];
        const worst = (times: number[], window: number) =>
          Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u - t <= window).length));
        const broken =
          worst(schedule.slice(1), 30 * DAY) > 20 ||
          worst(schedule, 24 * HOUR) > 10 ||
          worst(schedule, 30 * DAY) > 35;
        expect(findRetryLimitViolation(schedule) !== null).toBe(broken);
      }),
    );
  });
});
