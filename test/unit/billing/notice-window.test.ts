import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { localDay, noticeWindow } from "../../../src/billing/notice-window.js";

const at = (iso: string) => DateTime.fromISO(iso, { zone: "utc" });

describe("noticeWindow", () => {
  it.each([
    // [what, now, days, after, until]
    ["a week ahead", "2026-03-01T10:00:00.000Z", 7, "2026-03-01T10:00:00.000Z", "2026-03-08T10:00:00.000Z"],
    ["one day ahead", "2026-03-01T10:00:00.000Z", 1, "2026-03-01T10:00:00.000Z", "2026-03-02T10:00:00.000Z"],
    [
      "across a month end",
      "2026-01-29T23:30:00.000Z",
      3,
      "2026-01-29T23:30:00.000Z",
      "2026-02-01T23:30:00.000Z",
    ],
    [
      "across a leap day",
      "2028-02-27T00:00:00.000Z",
      3,
      "2028-02-27T00:00:00.000Z",
      "2028-03-01T00:00:00.000Z",
    ],
  ])("%s", (_what, now, days, after, until) => {
    const window = noticeWindow(at(now), days);
    expect(window?.after.toUTC().toISO()).toBe(after);
    expect(window?.until.toUTC().toISO()).toBe(until);
  });

  it("is no window at all for 0 days: no notice is sent", () => {
    expect(noticeWindow(at("2026-03-01T10:00:00Z"), 0)).toBeNull();
  });

  it.each([-1, 1.5, Number.NaN])("refuses %s days", (days) => {
    expect(() => noticeWindow(at("2026-03-01T10:00:00Z"), days)).toThrow(RangeError);
  });
});

describe("localDay", () => {
  it.each([
    // [what, instant, zone, calendar day]
    ["morning in Doha", "2026-02-15T06:00:00Z", "Asia/Qatar", "2026-02-15"],
    ["after 21:00 UTC is the next day in Doha", "2026-02-14T21:00:00Z", "Asia/Qatar", "2026-02-15"],
    ["just before midnight in Doha", "2026-02-14T20:59:59Z", "Asia/Qatar", "2026-02-14"],
    ["the same instant, a day earlier in New York", "2026-02-15T03:00:00Z", "America/New_York", "2026-02-14"],
    ["UTC", "2026-12-31T23:59:59Z", "UTC", "2026-12-31"],
  ])("%s", (_what, instant, zone, day) => {
    expect(localDay(at(instant), zone)).toBe(day);
  });

  it("refuses an unknown zone", () => {
    expect(() => localDay(at("2026-02-15T06:00:00Z"), "Mars/Olympus")).toThrow(RangeError);
  });
});
