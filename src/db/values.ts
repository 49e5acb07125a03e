import { DateTime } from "luxon";

/*
 * Values as postgres.js returns them to a tagged query on this pool: drizzle makes timestamps come
 * back as Postgres's text ("2025-03-01 09:30:00.123456+00"), and int8 arrives as a string.
 */

/** Postgres's timestamptz output for years 1000–9999: date, time, up to 6 fraction digits, offset. */
const PG_TIMESTAMPTZ =
  /^([1-9]\d{3})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?$/;

/**
 * A timestamptz column's text as a UTC instant. The hot path reads several per charge: parsed by
 * hand into epoch milliseconds (fractions truncated, as luxon does), this costs a sixth of luxon's
 * ISO parser. Anything else Postgres may print (other years, BC, infinity) takes luxon's path.
 */
export function pgInstant(text: string): DateTime {
  const m = PG_TIMESTAMPTZ.exec(text);
  if (!m) return parsedByLuxon(text);
  const [, year, month, day, hour, minute, second, fraction, sign, offsetH, offsetM, offsetS] = m;
  const millis = fraction === undefined ? 0 : Number(fraction.padEnd(3, "0").slice(0, 3));
  const offsetSeconds = Number(offsetH) * 3600 + Number(offsetM ?? 0) * 60 + Number(offsetS ?? 0);
  const local = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second!, millis);
  // Date.UTC rolls an out-of-range field over (month 13, 30 February); luxon refuses it.
  const date = new Date(local);
  const rolledOver =
    date.getUTCMonth() + 1 !== +month! ||
    date.getUTCDate() !== +day! ||
    date.getUTCHours() !== +hour! ||
    date.getUTCMinutes() !== +minute! ||
    date.getUTCSeconds() !== +second!;
  if (rolledOver) return parsedByLuxon(text);
  return DateTime.fromMillis(local - (sign === "-" ? -1 : 1) * offsetSeconds * 1000, { zone: "utc" });
}

function parsedByLuxon(text: string): DateTime {
  const instant = DateTime.fromISO(text.replace(" ", "T"), { setZone: true });
  if (!instant.isValid) throw new RangeError(`invalid timestamp from Postgres: ${text}`);
  return instant.toUTC();
}

/** The instants of years 0–9999 (0000-01-01 to 9999-12-31 UTC), which Date writes as luxon does. */
const FOUR_DIGIT_YEARS = { from: -62_167_219_200_000, to: 253_402_300_799_999 };

/**
 * An instant as the UTC ISO text a timestamptz parameter takes, exactly luxon's
 * `toUTC().toISO()`: the hot path writes several per charge, and Date's ISO form costs a fifth of
 * luxon's (no zone conversion, no locale). Years outside 0–9999 and an invalid instant take luxon's
 * path: its text may differ for those years, and an invalid instant is null, as it always was here.
 */
export function pgTimestamp(instant: DateTime): string | null {
  const ms = instant.toMillis();
  if (ms >= FOUR_DIGIT_YEARS.from && ms <= FOUR_DIGIT_YEARS.to) return new Date(ms).toISOString();
  return instant.toUTC().toISO();
}

export function pgInstantOrNull(text: string | null): DateTime | null {
  return text === null ? null : pgInstant(text);
}

/** An int8 column (amounts in minor units, counts) as a number, refused past 2^53. */
export function pgInteger(value: string | number): number {
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a safe integer from Postgres: ${value}`);
  return n;
}
