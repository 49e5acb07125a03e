import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { pgInstant, pgTimestamp } from "../../../src/db/values.js";

/** What luxon's ISO parser makes of the same text: the hand parser must agree with it exactly. */
const byLuxon = (text: string) => DateTime.fromISO(text.replace(" ", "T"), { setZone: true }).toUTC();

describe("pgInstant", () => {
  it.each([
    ["2026-03-01 09:30:00+00", "2026-03-01T09:30:00.000Z"],
    ["2026-03-01 09:30:00.1+00", "2026-03-01T09:30:00.100Z"],
    ["2026-03-01 09:30:00.1234+00", "2026-03-01T09:30:00.123Z"],
    ["2026-03-01 09:30:00.999999+00", "2026-03-01T09:30:00.999Z"],
    ["2026-03-01 00:15:00+03", "2026-02-28T21:15:00.000Z"],
    ["2024-02-29 23:59:59.5-03", "2024-03-01T02:59:59.500Z"],
    ["2026-03-01 09:30:00+05:30", "2026-03-01T04:00:00.000Z"],
    ["2026-12-31 23:59:59+00", "2026-12-31T23:59:59.000Z"],
  ])("%s is %s", (text, iso) => {
    const instant = pgInstant(text);
    expect(instant.toISO()).toBe(iso);
    expect(instant.zoneName).toBe("UTC");
    expect(instant.toMillis()).toBe(byLuxon(text).toMillis());
  });

  it.each([["0099-03-01 09:30:00+00", "0099-03-01T09:30:00.000Z"]])(
    "%s, outside the hand parser's years, is read by luxon as %s",
    (text, iso) => {
      expect(pgInstant(text).toISO()).toBe(iso);
    },
  );

  // Postgres prints an offset with seconds for old local mean times (Asia/Kolkata in 1900); luxon
  // cannot read it at all.
  it("reads an offset with seconds", () => {
    expect(pgInstant("1900-03-01 14:51:10+05:21:10").toISO()).toBe("1900-03-01T09:30:00.000Z");
  });

  it.each([
    "2026-02-30 09:30:00+00",
    "2026-13-01 09:30:00+00",
    "2026-03-01 24:30:00+00",
    "2026-03-01 09:60:00+00",
    "infinity",
    "",
  ])("refuses %j", (text) => {
    expect(() => pgInstant(text)).toThrow(RangeError);
  });
});

describe("pgTimestamp", () => {
  it.each([
    ["2026-03-01T09:30:00.000+03:00", "Asia/Qatar", "2026-03-01T06:30:00.000Z"],
    ["2026-03-01T09:30:00.123Z", "utc", "2026-03-01T09:30:00.123Z"],
    ["2024-02-29T23:59:59.999-03:00", "America/Sao_Paulo", "2024-03-01T02:59:59.999Z"],
    ["0000-01-01T00:00:00.000Z", "utc", "0000-01-01T00:00:00.000Z"],
    ["9999-12-31T23:59:59.999Z", "utc", "9999-12-31T23:59:59.999Z"],
    ["+010000-01-01T00:00:00.000Z", "utc", "+010000-01-01T00:00:00.000Z"],
    ["-000001-12-31T23:59:59.999Z", "utc", "-000001-12-31T23:59:59.999Z"],
  ])("writes %s (%s) as %s, as luxon's toUTC().toISO() does", (iso, zone, expected) => {
    const instant = DateTime.fromISO(iso, { zone });
    expect(pgTimestamp(instant)).toBe(expected);
    expect(pgTimestamp(instant)).toBe(instant.toUTC().toISO());
  });

  it("writes an invalid instant as null, as luxon does", () => {
    expect(pgTimestamp(DateTime.invalid("no such day"))).toBeNull();
  });
});
