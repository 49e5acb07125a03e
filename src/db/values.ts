import { DateTime } from "luxon";

/*
 * Values as postgres.js returns them to a tagged query on this pool: drizzle makes timestamps come
 * back as Postgres's text ("2025-03-01 09:30:00.123456+00"), and int8 arrives as a string.
 */

/** A timestamptz column's text as a UTC instant. */
export function pgInstant(text: string): DateTime {
  const instant = DateTime.fromISO(text.replace(" ", "T"), { setZone: true });
  if (!instant.isValid) throw new RangeError(`invalid timestamp from Postgres: ${text}`);
  return instant.toUTC();
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
