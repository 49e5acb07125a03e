import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { quietUntil } from "../../../src/billing/index.js";

const at = (iso: string) => DateTime.fromISO(iso, { setZone: true });
const utc = (time: DateTime | null) => time?.toUTC().toISO() ?? null;

describe("quietUntil", () => {
  it.each([
    // Qatar, no DST (UTC+3), quiet 21-8: over midnight.
    ["Asia/Qatar", 21, 8, "2026-01-15T17:59:59Z", null],
    ["Asia/Qatar", 21, 8, "2026-01-15T18:00:00Z", "2026-01-16T05:00:00.000Z"],
    ["Asia/Qatar", 21, 8, "2026-01-15T20:59:00Z", "2026-01-16T05:00:00.000Z"],
    ["Asia/Qatar", 21, 8, "2026-01-15T23:30:00Z", "2026-01-16T05:00:00.000Z"],
    ["Asia/Qatar", 21, 8, "2026-01-16T04:59:59Z", "2026-01-16T05:00:00.000Z"],
    ["Asia/Qatar", 21, 8, "2026-01-16T05:00:00Z", null],
    ["Asia/Qatar", 21, 8, "2026-01-16T12:00:00Z", null],
    // Riyadh (UTC+3), a window inside one day.
    ["Asia/Riyadh", 13, 15, "2026-01-15T09:59:00Z", null],
    ["Asia/Riyadh", 13, 15, "2026-01-15T10:00:00Z", "2026-01-15T12:00:00.000Z"],
    ["Asia/Riyadh", 13, 15, "2026-01-15T11:59:00Z", "2026-01-15T12:00:00.000Z"],
    ["Asia/Riyadh", 13, 15, "2026-01-15T12:00:00Z", null],
    // A half-hour offset (UTC+5:30): the window follows the local wall clock.
    ["Asia/Kolkata", 21, 8, "2026-01-15T15:29:00Z", null],
    ["Asia/Kolkata", 21, 8, "2026-01-15T15:30:00Z", "2026-01-16T02:30:00.000Z"],
    // Starting at midnight, and ending at midnight.
    ["UTC", 0, 6, "2026-01-15T00:00:00Z", "2026-01-15T06:00:00.000Z"],
    ["UTC", 0, 6, "2026-01-15T23:59:59Z", null],
    ["UTC", 22, 0, "2026-01-15T22:00:00Z", "2026-01-16T00:00:00.000Z"],
    ["UTC", 22, 0, "2026-01-15T21:59:59Z", null],
    // New York springs forward at 02:00 on 8 March 2026: quiet ends at the next hour that exists.
    ["America/New_York", 22, 2, "2026-03-08T06:30:00Z", "2026-03-08T07:00:00.000Z"],
    ["America/New_York", 22, 7, "2026-03-08T06:30:00Z", "2026-03-08T11:00:00.000Z"],
  ] as const)("in %s, quiet %i-%i, at %s: until %s", (zone, start, end, now, expected) => {
    expect(utc(quietUntil(at(now), zone, { start, end }))).toBe(expected);
  });

  it("answers in the customer's zone, whatever zone now is read in", () => {
    const until = quietUntil(at("2026-01-16T01:00:00+03:00"), "Asia/Qatar", { start: 21, end: 8 });
    expect(until?.toISO()).toBe("2026-01-16T08:00:00.000+03:00");
  });

  it.each([
    ["equal hours", { start: 8, end: 8 }, "Asia/Qatar"],
    ["an hour past 23", { start: 24, end: 8 }, "Asia/Qatar"],
    ["a fractional hour", { start: 21.5, end: 8 }, "Asia/Qatar"],
    ["a negative hour", { start: 21, end: -1 }, "Asia/Qatar"],
    ["an unknown zone", { start: 21, end: 8 }, "Mars/Olympus_Mons"],
  ])("refuses %s", (_, hours, zone) => {
    expect(() => quietUntil(at("2026-01-15T12:00:00Z"), zone, hours)).toThrow(RangeError);
  });
});
