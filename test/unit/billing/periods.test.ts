import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  type BillingInterval,
  clampDay,
  DEFAULT_BILLING_ZONE,
  daysInMonth,
  nextPeriod,
  periodAt,
  periodBoundary,
  periodContaining,
  trialEnd,
} from "../../../src/billing/index.js";

const QATAR = "Asia/Qatar";
const LONDON = "Europe/London";
const NEW_YORK = "America/New_York";

const monthly: BillingInterval = { unit: "month", count: 1 };
const quarterly: BillingInterval = { unit: "month", count: 3 };
const yearly: BillingInterval = { unit: "year", count: 1 };
const weekly: BillingInterval = { unit: "week", count: 1 };
const daily: BillingInterval = { unit: "day", count: 1 };

/** A local wall-clock time in a zone, written the way a merchant would read it. */
const local = (iso: string, zone: string) => DateTime.fromISO(iso, { zone });

/** The boundaries n = 0, 1, 2, ... as local ISO strings with their offset. */
function boundaries(anchor: DateTime, interval: BillingInterval, count: number, zone: string): string[] {
  return Array.from(
    { length: count },
    (_, n) => periodBoundary(anchor, interval, n, zone).setZone(zone).toISO()!,
  );
}

describe("clampDay / daysInMonth", () => {
  it.each([
    [2027, 1, 31, 31],
    [2027, 2, 31, 28],
    [2028, 2, 31, 29],
    [2028, 2, 29, 29],
    [2027, 2, 29, 28],
    [2100, 2, 29, 28],
    [2000, 2, 29, 29],
    [2027, 4, 31, 30],
    [2027, 11, 30, 30],
    [2027, 12, 15, 15],
  ])("clampDay(%i, %i, %i) = %i", (year, month, day, expected) => {
    expect(clampDay(year, month, day)).toBe(expected);
  });

  it.each([
    [2027, 0, 1],
    [2027, 13, 1],
    [2027, 1, 0],
    [2027, 1, 32],
    [2027, 1, 1.5],
  ])("refuses clampDay(%d, %d, %d)", (year, month, day) => {
    expect(() => clampDay(year, month, day)).toThrow(RangeError);
  });

  it("counts February by the Gregorian leap rules", () => {
    expect([1900, 2000, 2027, 2028].map((year) => daysInMonth(year, 2))).toEqual([28, 29, 28, 29]);
  });
});

describe("periodBoundary: tables of literal dates", () => {
  it("keeps the 31st through a non-leap year (Asia/Qatar, midnight)", () => {
    expect(boundaries(local("2027-01-31T00:00", QATAR), monthly, 13, QATAR)).toEqual([
      "2027-01-31T00:00:00.000+03:00",
      "2027-02-28T00:00:00.000+03:00",
      "2027-03-31T00:00:00.000+03:00",
      "2027-04-30T00:00:00.000+03:00",
      "2027-05-31T00:00:00.000+03:00",
      "2027-06-30T00:00:00.000+03:00",
      "2027-07-31T00:00:00.000+03:00",
      "2027-08-31T00:00:00.000+03:00",
      "2027-09-30T00:00:00.000+03:00",
      "2027-10-31T00:00:00.000+03:00",
      "2027-11-30T00:00:00.000+03:00",
      "2027-12-31T00:00:00.000+03:00",
      "2028-01-31T00:00:00.000+03:00",
    ]);
  });

  it("keeps the 31st through a leap year, with February 29", () => {
    expect(boundaries(local("2028-01-31T09:15", QATAR), monthly, 13, QATAR)).toEqual([
      "2028-01-31T09:15:00.000+03:00",
      "2028-02-29T09:15:00.000+03:00",
      "2028-03-31T09:15:00.000+03:00",
      "2028-04-30T09:15:00.000+03:00",
      "2028-05-31T09:15:00.000+03:00",
      "2028-06-30T09:15:00.000+03:00",
      "2028-07-31T09:15:00.000+03:00",
      "2028-08-31T09:15:00.000+03:00",
      "2028-09-30T09:15:00.000+03:00",
      "2028-10-31T09:15:00.000+03:00",
      "2028-11-30T09:15:00.000+03:00",
      "2028-12-31T09:15:00.000+03:00",
      "2029-01-31T09:15:00.000+03:00",
    ]);
  });

  it("returns UTC instants: Qatar midnight is 21:00 UTC the day before", () => {
    const anchor = local("2027-01-31T00:00", QATAR);
    expect(periodBoundary(anchor, monthly, 0, QATAR).toISO()).toBe("2027-01-30T21:00:00.000Z");
    expect(periodBoundary(anchor, monthly, 1, QATAR).toISO()).toBe("2027-02-27T21:00:00.000Z");
    expect(periodBoundary(anchor, monthly, 2, QATAR).toISO()).toBe("2027-03-30T21:00:00.000Z");
    expect(periodBoundary(anchor, monthly, 1, QATAR).zoneName).toBe("UTC");
  });

  it("uses Asia/Qatar when no zone is given", () => {
    expect(DEFAULT_BILLING_ZONE).toBe(QATAR);
    const anchor = local("2027-01-31T00:00", QATAR);
    expect(periodBoundary(anchor, monthly, 1).toISO()).toBe("2027-02-27T21:00:00.000Z");
  });

  it("anchors February 29 yearly: the 28th in common years, the 29th again in leap years", () => {
    expect(boundaries(local("2028-02-29T10:00", QATAR), yearly, 6, QATAR)).toEqual([
      "2028-02-29T10:00:00.000+03:00",
      "2029-02-28T10:00:00.000+03:00",
      "2030-02-28T10:00:00.000+03:00",
      "2031-02-28T10:00:00.000+03:00",
      "2032-02-29T10:00:00.000+03:00",
      "2033-02-28T10:00:00.000+03:00",
    ]);
  });

  it("counts 3 months per period for quarterly plans, from the anchor", () => {
    expect(boundaries(local("2027-01-31T00:00", QATAR), quarterly, 5, QATAR)).toEqual([
      "2027-01-31T00:00:00.000+03:00",
      "2027-04-30T00:00:00.000+03:00",
      "2027-07-31T00:00:00.000+03:00",
      "2027-10-31T00:00:00.000+03:00",
      "2028-01-31T00:00:00.000+03:00",
    ]);
    expect(boundaries(local("2027-11-30T00:00", QATAR), quarterly, 4, QATAR)).toEqual([
      "2027-11-30T00:00:00.000+03:00",
      "2028-02-29T00:00:00.000+03:00",
      "2028-05-30T00:00:00.000+03:00",
      "2028-08-30T00:00:00.000+03:00",
    ]);
  });

  it("keeps a 30th anchor: February is clamped, March is the 30th again", () => {
    expect(boundaries(local("2027-01-30T12:00", QATAR), monthly, 4, QATAR)).toEqual([
      "2027-01-30T12:00:00.000+03:00",
      "2027-02-28T12:00:00.000+03:00",
      "2027-03-30T12:00:00.000+03:00",
      "2027-04-30T12:00:00.000+03:00",
    ]);
    expect(boundaries(local("2028-01-30T12:00", QATAR), monthly, 3, QATAR)).toEqual([
      "2028-01-30T12:00:00.000+03:00",
      "2028-02-29T12:00:00.000+03:00",
      "2028-03-30T12:00:00.000+03:00",
    ]);
  });

  it("counts weeks as 7 days and days as days, across month and year ends", () => {
    expect(boundaries(local("2027-12-27T08:00", QATAR), weekly, 3, QATAR)).toEqual([
      "2027-12-27T08:00:00.000+03:00",
      "2028-01-03T08:00:00.000+03:00",
      "2028-01-10T08:00:00.000+03:00",
    ]);
    expect(boundaries(local("2027-12-27T08:00", QATAR), { unit: "week", count: 2 }, 3, QATAR)).toEqual([
      "2027-12-27T08:00:00.000+03:00",
      "2028-01-10T08:00:00.000+03:00",
      "2028-01-24T08:00:00.000+03:00",
    ]);
    expect(boundaries(local("2028-02-27T23:59", QATAR), daily, 4, QATAR)).toEqual([
      "2028-02-27T23:59:00.000+03:00",
      "2028-02-28T23:59:00.000+03:00",
      "2028-02-29T23:59:00.000+03:00",
      "2028-03-01T23:59:00.000+03:00",
    ]);
    expect(
      periodBoundary(local("2027-01-01T00:00", QATAR), { unit: "day", count: 30 }, 2, QATAR).toISO(),
    ).toBe("2027-03-01T21:00:00.000Z");
  });

  it("keeps a 01:30 wall time across London's spring-forward night (23-hour day)", () => {
    const anchor = local("2027-03-27T01:30", LONDON);
    // 01:30 does not exist on 28 March 2027: clocks jump from 01:00 GMT to 02:00 BST.
    expect(boundaries(anchor, daily, 3, LONDON)).toEqual([
      "2027-03-27T01:30:00.000+00:00",
      "2027-03-28T02:30:00.000+01:00",
      "2027-03-29T01:30:00.000+01:00",
    ]);
    const day1 = periodAt(anchor, daily, 1, LONDON);
    expect(day1.start.toISO()).toBe("2027-03-28T01:30:00.000Z");
    expect(day1.end.toISO()).toBe("2027-03-29T00:30:00.000Z");
    expect(day1.end.diff(day1.start, "hours").hours).toBe(23);
  });

  it("takes the first 01:30 on London's fall-back night (25-hour day)", () => {
    const anchor = local("2027-10-30T01:30", LONDON);
    expect(boundaries(anchor, daily, 3, LONDON)).toEqual([
      "2027-10-30T01:30:00.000+01:00",
      "2027-10-31T01:30:00.000+01:00",
      "2027-11-01T01:30:00.000+00:00",
    ]);
    const day1 = periodAt(anchor, daily, 1, LONDON);
    expect(day1.end.diff(day1.start, "hours").hours).toBe(25);
  });

  it("keeps 01:30 London for monthly and weekly periods across both DST changes", () => {
    expect(boundaries(local("2027-01-15T01:30", LONDON), monthly, 4, LONDON)).toEqual([
      "2027-01-15T01:30:00.000+00:00",
      "2027-02-15T01:30:00.000+00:00",
      "2027-03-15T01:30:00.000+00:00",
      "2027-04-15T01:30:00.000+01:00",
    ]);
    expect(boundaries(local("2027-03-21T01:30", LONDON), weekly, 3, LONDON)).toEqual([
      "2027-03-21T01:30:00.000+00:00",
      "2027-03-28T02:30:00.000+01:00",
      "2027-04-04T01:30:00.000+01:00",
    ]);
    expect(boundaries(local("2027-10-24T01:30", LONDON), weekly, 3, LONDON)).toEqual([
      "2027-10-24T01:30:00.000+01:00",
      "2027-10-31T01:30:00.000+01:00",
      "2027-11-07T01:30:00.000+00:00",
    ]);
  });

  it("handles New York's DST changes the same way", () => {
    expect(boundaries(local("2027-03-13T02:30", NEW_YORK), daily, 3, NEW_YORK)).toEqual([
      "2027-03-13T02:30:00.000-05:00",
      "2027-03-14T03:30:00.000-04:00",
      "2027-03-15T02:30:00.000-04:00",
    ]);
    expect(boundaries(local("2027-11-06T01:30", NEW_YORK), daily, 3, NEW_YORK)).toEqual([
      "2027-11-06T01:30:00.000-04:00",
      "2027-11-07T01:30:00.000-04:00",
      "2027-11-08T01:30:00.000-05:00",
    ]);
  });

  it("returns the anchor itself for n = 0, even at the second occurrence of an ambiguous time", () => {
    const secondOccurrence = DateTime.fromISO("2027-10-31T01:30:00.000Z");
    expect(secondOccurrence.setZone(LONDON).toISO()).toBe("2027-10-31T01:30:00.000+00:00");
    expect(periodBoundary(secondOccurrence, daily, 0, LONDON).toISO()).toBe("2027-10-31T01:30:00.000Z");
    expect(periodBoundary(secondOccurrence, daily, 1, LONDON).toISO()).toBe("2027-11-01T01:30:00.000Z");
  });

  it.each([
    ["an unknown zone", () => periodBoundary(local("2027-01-01", QATAR), monthly, 1, "Mars/Olympus")],
    ["a negative index", () => periodBoundary(local("2027-01-01", QATAR), monthly, -1, QATAR)],
    ["a fractional index", () => periodBoundary(local("2027-01-01", QATAR), monthly, 1.5, QATAR)],
    ["a zero count", () => periodBoundary(local("2027-01-01", QATAR), { unit: "month", count: 0 }, 1, QATAR)],
    ["an invalid anchor", () => periodBoundary(DateTime.fromISO("2027-02-30"), monthly, 1, QATAR)],
  ])("refuses %s", (_, call) => {
    expect(call).toThrow(RangeError);
  });
});

describe("periodContaining / nextPeriod", () => {
  const anchor = local("2027-01-31T00:00", QATAR);

  it.each([
    ["2027-01-30T21:00:00.000Z", 0, "2027-01-30T21:00:00.000Z", "2027-02-27T21:00:00.000Z"],
    ["2027-02-27T20:59:59.999Z", 0, "2027-01-30T21:00:00.000Z", "2027-02-27T21:00:00.000Z"],
    ["2027-02-27T21:00:00.000Z", 1, "2027-02-27T21:00:00.000Z", "2027-03-30T21:00:00.000Z"],
    ["2027-03-15T12:00:00.000Z", 1, "2027-02-27T21:00:00.000Z", "2027-03-30T21:00:00.000Z"],
    ["2027-12-31T00:00:00.000Z", 11, "2027-12-30T21:00:00.000Z", "2028-01-30T21:00:00.000Z"],
    ["2029-03-01T00:00:00.000Z", 25, "2029-02-27T21:00:00.000Z", "2029-03-30T21:00:00.000Z"],
  ])("at %s is period %i [%s, %s)", (at, index, start, end) => {
    const period = periodContaining(anchor, monthly, DateTime.fromISO(at), QATAR);
    expect({ index: period.index, start: period.start.toISO(), end: period.end.toISO() }).toEqual({
      index,
      start,
      end,
    });
  });

  it("finds the 23-hour London day", () => {
    const period = periodContaining(
      local("2027-03-27T01:30", LONDON),
      daily,
      DateTime.fromISO("2027-03-28T23:00Z"),
      LONDON,
    );
    expect(period.index).toBe(1);
    expect(period.start.toISO()).toBe("2027-03-28T01:30:00.000Z");
    expect(period.end.toISO()).toBe("2027-03-29T00:30:00.000Z");
  });

  it("refuses an instant before the anchor", () => {
    expect(() => periodContaining(anchor, monthly, anchor.minus({ milliseconds: 1 }), QATAR)).toThrow(
      /before the billing anchor/,
    );
  });

  it("nextPeriod is the period after the given index", () => {
    const next = nextPeriod(anchor, monthly, 0, QATAR);
    expect(next.index).toBe(1);
    expect(next.start.setZone(QATAR).toISODate()).toBe("2027-02-28");
    expect(next.end.setZone(QATAR).toISODate()).toBe("2027-03-31");
  });
});

describe("trialEnd", () => {
  it.each([
    ["2027-03-20T01:30", LONDON, 14, "2027-04-03T01:30:00.000+01:00"],
    ["2027-03-14T01:30", LONDON, 14, "2027-03-28T02:30:00.000+01:00"],
    ["2027-01-31T00:00", QATAR, 30, "2027-03-02T00:00:00.000+03:00"],
    ["2028-02-01T10:00", QATAR, 28, "2028-02-29T10:00:00.000+03:00"],
    ["2027-05-05T10:00", QATAR, 0, "2027-05-05T10:00:00.000+03:00"],
  ])("%s (%s) + %i days = %s", (start, zone, days, expected) => {
    const end = trialEnd(local(start, zone), days, zone);
    expect(end.zoneName).toBe("UTC");
    expect(end.setZone(zone).toISO()).toBe(expected);
  });

  it("refuses negative or fractional trials", () => {
    expect(() => trialEnd(local("2027-01-01", QATAR), -1, QATAR)).toThrow(RangeError);
    expect(() => trialEnd(local("2027-01-01", QATAR), 1.5, QATAR)).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over random anchors, intervals and zones.

/** Zones with the interesting cases: none, 1-hour DST both hemispheres, 30-minute DST, midnight gaps. */
const ZONES = [
  QATAR,
  LONDON,
  NEW_YORK,
  "Australia/Lord_Howe",
  "America/Santiago",
  "Pacific/Auckland",
  "Asia/Kolkata",
  "UTC",
] as const;

const MIN_MS = Date.UTC(2000, 0, 1);
const MAX_MS = Date.UTC(2060, 0, 1);

const zoneArb = fc.constantFrom(...ZONES);
/** Any instant, or a local wall time near a month end (the clamping cases), in the zone. */
const anchorArb = (zone: string) =>
  fc.oneof(
    fc.integer({ min: MIN_MS, max: MAX_MS }).map((ms) => DateTime.fromMillis(ms, { zone: "utc" })),
    fc
      .record({
        year: fc.integer({ min: 2000, max: 2060 }),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 28, max: 31 }),
        hour: fc.integer({ min: 0, max: 23 }),
        minute: fc.constantFrom(0, 30, 59),
      })
      .map(({ year, month, day, ...time }) =>
        DateTime.fromObject({ year, month, day: clampDay(year, month, day), ...time }, { zone }).toUTC(),
      ),
  );
const intervalArb: fc.Arbitrary<BillingInterval> = fc.record({
  unit: fc.constantFrom("day", "week", "month", "year"),
  count: fc.integer({ min: 1, max: 36 }),
});
const caseArb = zoneArb.chain((zone) =>
  fc.record({ zone: fc.constant(zone), anchor: anchorArb(zone), interval: intervalArb }),
);

/** Whether a wall time exists on a date in a zone (luxon moves non-existent times forward). */
function wallTimeExists(date: DateTime, time: DateTime, zone: string): boolean {
  const fields = { hour: time.hour, minute: time.minute, second: time.second, millisecond: time.millisecond };
  const resolved = DateTime.fromObject(
    { year: date.year, month: date.month, day: date.day, ...fields },
    { zone },
  );
  return resolved.hour === fields.hour && resolved.minute === fields.minute && resolved.day === date.day;
}

describe("period properties", () => {
  it("periods are contiguous and strictly increasing, and period 0 starts at the anchor", () => {
    fc.assert(
      fc.property(caseArb, ({ zone, anchor, interval }) => {
        expect(periodBoundary(anchor, interval, 0, zone).toMillis()).toBe(anchor.toMillis());
        let previous = periodAt(anchor, interval, 0, zone);
        for (let n = 1; n <= 24; n += 1) {
          const period = periodAt(anchor, interval, n, zone);
          expect(period.start.toMillis()).toBe(previous.end.toMillis());
          expect(period.start.toMillis()).toBeLessThan(period.end.toMillis());
          previous = period;
        }
      }),
    );
  });

  it("periodContaining returns the period with start <= at < end, consistent with periodAt", () => {
    const tenYearsMs = 10 * 366 * 86_400_000;
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: tenYearsMs }), ({ zone, anchor, interval }, offset) => {
        const at = anchor.plus({ milliseconds: offset });
        const period = periodContaining(anchor, interval, at, zone);
        expect(period.start.toMillis()).toBeLessThanOrEqual(at.toMillis());
        expect(at.toMillis()).toBeLessThan(period.end.toMillis());
        expect(periodAt(anchor, interval, period.index, zone)).toEqual(period);
      }),
    );
  });

  it("a period boundary lies in the period it starts", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 40 }), ({ zone, anchor, interval }, n) => {
        const start = periodBoundary(anchor, interval, n, zone);
        expect(periodContaining(anchor, interval, start, zone).index).toBe(n);
      }),
    );
  });

  it("monthly and yearly boundaries fall on min(anchor day, days in month) of the right month", () => {
    const calendarArb = caseArb.filter(
      ({ interval }) => interval.unit === "month" || interval.unit === "year",
    );
    fc.assert(
      fc.property(calendarArb, fc.integer({ min: 1, max: 30 }), ({ zone, anchor, interval }, n) => {
        const anchorLocal = anchor.setZone(zone);
        const boundary = periodBoundary(anchor, interval, n, zone).setZone(zone);
        const months = n * interval.count * (interval.unit === "year" ? 12 : 1);
        const expectedMonth = anchorLocal.startOf("month").plus({ months });
        expect([boundary.year, boundary.month]).toEqual([expectedMonth.year, expectedMonth.month]);
        expect(boundary.day).toBe(Math.min(anchorLocal.day, daysInMonth(boundary.year, boundary.month)));
      }),
    );
  });

  it("keeps the anchor's local time of day wherever it exists, and moves forward only in a gap", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 30 }), ({ zone, anchor, interval }, n) => {
        const anchorLocal = anchor.setZone(zone);
        const boundary = periodBoundary(anchor, interval, n, zone).setZone(zone);
        const wall = anchorLocal.toFormat("HH:mm:ss.SSS");
        if (wallTimeExists(boundary, anchorLocal, zone)) {
          expect(boundary.toFormat("HH:mm:ss.SSS")).toBe(wall);
        } else {
          expect(boundary.toFormat("HH:mm:ss.SSS") > wall).toBe(true);
        }
      }),
    );
  });

  it("day and week boundaries are whole local calendar days from the anchor", () => {
    const dayArb = caseArb.filter(({ interval }) => interval.unit === "day" || interval.unit === "week");
    fc.assert(
      fc.property(dayArb, fc.integer({ min: 1, max: 30 }), ({ zone, anchor, interval }, n) => {
        const anchorLocal = anchor.setZone(zone);
        const boundary = periodBoundary(anchor, interval, n, zone).setZone(zone);
        const days = n * interval.count * (interval.unit === "week" ? 7 : 1);
        const expected = DateTime.utc(anchorLocal.year, anchorLocal.month, anchorLocal.day).plus({ days });
        expect(boundary.toISODate()).toBe(expected.toISODate());
      }),
    );
  });
});
