import { DateTime, IANAZone } from "luxon";
import { INTERVAL_UNITS, type IntervalUnit } from "./interval-units.js";

/**
 * Billing periods in the merchant's time zone. Customers read "renews on the 31st at 00:00" on
 * their local calendar, so boundaries are computed on local dates and wall-clock times, then
 * returned as UTC instants for storage and comparison.
 *
 * Every boundary is computed from the anchor (start of period 0), never by adding one interval to
 * the previous boundary: repeated addition drifts (Jan 31 → Feb 28 → Mar 28 → ...), computing from
 * the anchor keeps the anchor's day wherever the month has it (Jan 31 → Feb 28 → Mar 31).
 */

/** The gateway's merchants are in Qatar; other zones are passed explicitly. */
export const DEFAULT_BILLING_ZONE = "Asia/Qatar";

export interface BillingInterval {
  readonly unit: IntervalUnit;
  readonly count: number;
}

/** Half-open [start, end): an instant equal to `end` belongs to the next period. */
export interface BillingPeriod {
  readonly index: number;
  readonly start: DateTime;
  readonly end: DateTime;
}

interface LocalDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

type Step = { readonly kind: "months" | "days"; readonly size: number };

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (!Number.isSafeInteger(year)) throw new RangeError(`year must be an integer, got ${year}`);
  if (!Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError(`month must be an integer from 1 to 12, got ${month}`);
  }
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** The anchor day where the month has it, otherwise the month's last day (31 → 30, 29 → 28). */
export function clampDay(year: number, month: number, day: number): number {
  if (!Number.isInteger(day) || day < 1 || day > 31) {
    throw new RangeError(`day must be an integer from 1 to 31, got ${day}`);
  }
  return Math.min(day, daysInMonth(year, month));
}

/** The zone object; luxon caches it per name together with its validity, which is costly to check. */
function zoneOf(zone: string): IANAZone {
  const tz = IANAZone.create(zone);
  if (!tz.isValid) {
    throw new RangeError(
      `unknown time zone ${JSON.stringify(zone)}: expected an IANA name such as Asia/Qatar`,
    );
  }
  return tz;
}

function assertInstant(name: string, value: DateTime): void {
  if (!value.isValid) throw new RangeError(`${name} is an invalid DateTime: ${value.invalidExplanation}`);
}

function assertIndex(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

function stepOf(interval: BillingInterval): Step {
  const { unit, count } = interval;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new RangeError(`interval count must be a positive integer, got ${count}`);
  }
  switch (unit) {
    case "day":
      return { kind: "days", size: count };
    case "week":
      return { kind: "days", size: 7 * count };
    case "month":
      return { kind: "months", size: count };
    case "year":
      return { kind: "months", size: 12 * count };
    default:
      throw new RangeError(`interval unit must be one of ${INTERVAL_UNITS.join(", ")}, got ${String(unit)}`);
  }
}

function addMonthsClamped(date: LocalDate, months: number): LocalDate {
  const total = date.month - 1 + months;
  const year = date.year + Math.floor(total / 12);
  const month = total - 12 * Math.floor(total / 12) + 1;
  return { year, month, day: clampDay(year, month, date.day) };
}

/** Calendar-day arithmetic; done in UTC, where every day has 24 hours, so no zone can bend it. */
function addDays(date: LocalDate, days: number): LocalDate {
  const shifted = DateTime.utc(date.year, date.month, date.day).plus({ days });
  return { year: shifted.year, month: shifted.month, day: shifted.day };
}

/**
 * The UTC instant of a local wall-clock time, with the rules of java.time and Temporal's
 * "compatible" mode, because luxon picks either occurrence depending on the zone:
 * - a time that occurs twice (clocks go back) resolves to the earlier occurrence;
 * - a time that does not exist (clocks go forward) is moved forward by the length of the gap,
 *   e.g. 01:30 on the day London springs forward becomes 02:30 BST.
 */
function localToUtc(date: LocalDate, time: DateTime, tz: IANAZone): DateTime {
  const wall = DateTime.utc(
    date.year,
    date.month,
    date.day,
    time.hour,
    time.minute,
    time.second,
    time.millisecond,
  ).toMillis();
  // Offsets a day either side cover both sides of any transition near this wall time.
  const offsetBefore = tz.offset(wall - MS_PER_DAY);
  const offsetAfter = tz.offset(wall + MS_PER_DAY);
  const matches = [offsetBefore, offsetAfter]
    .map((offset) => wall - offset * MS_PER_MINUTE)
    .filter((instant) => tz.offset(instant) * MS_PER_MINUTE === wall - instant);
  const instant = matches.length > 0 ? Math.min(...matches) : wall - offsetBefore * MS_PER_MINUTE;
  return DateTime.fromMillis(instant, { zone: "utc" });
}

function localDateOf(value: DateTime): LocalDate {
  return { year: value.year, month: value.month, day: value.day };
}

/** Start of period `n` for an anchor already converted to the billing zone. */
function boundaryFromLocal(anchorLocal: DateTime, step: Step, n: number, tz: IANAZone): DateTime {
  if (n === 0) return anchorLocal.toUTC();
  const anchorDate = localDateOf(anchorLocal);
  const date =
    step.kind === "months" ? addMonthsClamped(anchorDate, n * step.size) : addDays(anchorDate, n * step.size);
  return localToUtc(date, anchorLocal, tz);
}

/**
 * Start of the n-th period (n = 0 is the anchor itself): the anchor's local date moved by
 * n × interval, with the day clamped to the month's length for month and year intervals, at the
 * anchor's local wall-clock time. A day interval is a local calendar day, so across a DST change it
 * lasts 23 or 25 hours while the wall time stays.
 */
export function periodBoundary(
  anchor: DateTime,
  interval: BillingInterval,
  n: number,
  zone: string = DEFAULT_BILLING_ZONE,
): DateTime {
  assertInstant("anchor", anchor);
  assertIndex("period index", n);
  const tz = zoneOf(zone);
  return boundaryFromLocal(anchor.setZone(tz), stepOf(interval), n, tz);
}

export function periodAt(
  anchor: DateTime,
  interval: BillingInterval,
  index: number,
  zone: string = DEFAULT_BILLING_ZONE,
): BillingPeriod {
  assertInstant("anchor", anchor);
  assertIndex("period index", index);
  const tz = zoneOf(zone);
  const step = stepOf(interval);
  const local = anchor.setZone(tz);
  return {
    index,
    start: boundaryFromLocal(local, step, index, tz),
    end: boundaryFromLocal(local, step, index + 1, tz),
  };
}

/** The period that follows period `index`. */
export function nextPeriod(
  anchor: DateTime,
  interval: BillingInterval,
  index: number,
  zone: string = DEFAULT_BILLING_ZONE,
): BillingPeriod {
  assertIndex("period index", index);
  return periodAt(anchor, interval, index + 1, zone);
}

/** The period with start <= at < end. There is no period before the anchor, so that is an error. */
export function periodContaining(
  anchor: DateTime,
  interval: BillingInterval,
  at: DateTime,
  zone: string = DEFAULT_BILLING_ZONE,
): BillingPeriod {
  assertInstant("anchor", anchor);
  assertInstant("at", at);
  const tz = zoneOf(zone);
  const step = stepOf(interval);
  if (at.toMillis() < anchor.toMillis()) {
    throw new RangeError(`${at.toUTC().toISO()} is before the billing anchor ${anchor.toUTC().toISO()}`);
  }
  const anchorLocal = anchor.setZone(tz);
  const atLocal = at.setZone(tz);
  const elapsed =
    step.kind === "months"
      ? (atLocal.year - anchorLocal.year) * 12 + (atLocal.month - anchorLocal.month)
      : Math.round(
          (DateTime.utc(atLocal.year, atLocal.month, atLocal.day).toMillis() -
            DateTime.utc(anchorLocal.year, anchorLocal.month, anchorLocal.day).toMillis()) /
            MS_PER_DAY,
        );
  // The calendar estimate is off by at most one period (time of day, clamped days); walk to it.
  let index = Math.max(0, Math.floor(elapsed / step.size));
  const startOf = (n: number) => boundaryFromLocal(anchorLocal, step, n, tz);
  let start = startOf(index);
  while (index > 0 && start > at) {
    index -= 1;
    start = startOf(index);
  }
  let end = startOf(index + 1);
  while (end <= at) {
    index += 1;
    start = end;
    end = startOf(index + 1);
  }
  return { index, start, end };
}

/**
 * When a trial that starts at `start` ends: `trialDays` local calendar days later at the same
 * wall-clock time, which is also the anchor of the first paid period.
 */
export function trialEnd(start: DateTime, trialDays: number, zone: string = DEFAULT_BILLING_ZONE): DateTime {
  assertInstant("trial start", start);
  assertIndex("trial days", trialDays);
  const tz = zoneOf(zone);
  if (trialDays === 0) return start.toUTC();
  const local = start.setZone(tz);
  return localToUtc(addDays(localDateOf(local), trialDays), local, tz);
}
