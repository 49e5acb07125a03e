import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { ControllableClock, systemClock, toDuration } from "../../../src/clock/index.js";

describe("ControllableClock", () => {
  it("stands still until moved", () => {
    const clock = new ControllableClock("2026-01-31T10:00:00Z");
    expect(clock.now().toISO()).toBe("2026-01-31T10:00:00.000Z");
    expect(clock.now().toISO()).toBe("2026-01-31T10:00:00.000Z");
  });

  it("advances by ISO durations and duration objects, in UTC", () => {
    const clock = new ControllableClock("2026-01-31T10:00:00+03:00");
    expect(clock.now().toISO()).toBe("2026-01-31T07:00:00.000Z");
    expect(clock.advance("P1M").toISO()).toBe("2026-02-28T07:00:00.000Z");
    expect(clock.advance({ hours: 25 }).toISO()).toBe("2026-03-01T08:00:00.000Z");
  });

  it("sets any instant, including the past", () => {
    const clock = new ControllableClock("2026-06-01T00:00:00Z");
    expect(clock.set("2025-01-01T00:00:00Z").toISO()).toBe("2025-01-01T00:00:00.000Z");
  });

  it("refuses to run backwards and refuses nonsense", () => {
    const clock = new ControllableClock("2026-06-01T00:00:00Z");
    expect(() => clock.advance("-P1D")).toThrow(/only advances forwards/);
    expect(() => clock.advance("one day")).toThrow(/invalid duration/);
    expect(() => clock.set("yesterday")).toThrow(/invalid timestamp/);
    expect(clock.now().toISO()).toBe("2026-06-01T00:00:00.000Z");
  });
});

describe("systemClock", () => {
  it("follows the wall clock in UTC", () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now.zoneName).toBe("UTC");
    expect(now.toMillis()).toBeGreaterThanOrEqual(before);
    expect(now.toMillis()).toBeLessThanOrEqual(DateTime.utc().toMillis());
  });
});

describe("toDuration", () => {
  it("parses ISO text", () => {
    expect(toDuration("PT90M").as("minutes")).toBe(90);
  });
});

describe("a running ControllableClock", () => {
  it("follows real time from where it was set and still jumps when advanced", () => {
    const clock = new ControllableClock("2026-03-01T00:00:00Z", { running: true });
    const first = clock.now();
    expect(first.toMillis()).toBeGreaterThanOrEqual(Date.parse("2026-03-01T00:00:00Z"));
    expect(first.toMillis()).toBeLessThan(Date.parse("2026-03-01T00:01:00Z"));
    let later = clock.now();
    const deadline = Date.now() + 1_000;
    while (later.toMillis() === first.toMillis() && Date.now() < deadline) later = clock.now();
    expect(later.toMillis()).toBeGreaterThan(first.toMillis());
    const advanced = clock.advance("P1D");
    expect(advanced.toMillis() - later.toMillis()).toBeGreaterThanOrEqual(86_400_000);
    expect(clock.set("2027-01-01T00:00:00Z").toMillis()).toBeLessThan(Date.parse("2027-01-01T00:01:00Z"));
  });
});
