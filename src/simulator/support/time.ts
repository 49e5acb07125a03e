import { DateTime } from "luxon";

/** The simulator keeps instants as epoch milliseconds (cheap to compare) and formats them at the edge. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export function isoOf(ms: number): string {
  return DateTime.fromMillis(ms, { zone: "utc" }).toISO() ?? new Date(ms).toISOString();
}

/** The legacy payment record's paymentDate: ISO 8601 in UTC without milliseconds. */
export function legacyDateOf(ms: number): string {
  return DateTime.fromMillis(ms, { zone: "utc" }).toFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");
}

/** The first midnight GMT strictly after `ms`. */
export function nextMidnightUtc(ms: number): number {
  return ms - (ms % DAY_MS) + DAY_MS;
}

/** The first instant after a card's expiry month (cards are valid through the last day of the month). */
export function endOfExpiryMonth(month: number, twoDigitYear: number): number {
  return DateTime.utc(2000 + twoDigitYear, month, 1)
    .plus({ months: 1 })
    .toMillis();
}

export function plusMonths(ms: number, months: number): number {
  return DateTime.fromMillis(ms, { zone: "utc" }).plus({ months }).toMillis();
}

/** The first instant of the month after next: a card valid through next month stops working then. */
export function endOfNextMonth(ms: number): number {
  return DateTime.fromMillis(ms, { zone: "utc" }).startOf("month").plus({ months: 2 }).toMillis();
}
