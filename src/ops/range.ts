import { DateTime } from "luxon";

/**
 * The period a dashboard view covers, in the merchant's time zone: [from, to), cut into hours when
 * it spans two days or less and into days otherwise, so a chart never has more than a few hundred
 * points. Pure.
 */
export type BucketUnit = "hour" | "day";

export interface OpsRange {
  from: DateTime;
  to: DateTime;
  unit: BucketUnit;
  timezone: string;
}

export const RANGE_PRESETS = {
  "24h": { hours: 24 },
  "7d": { days: 7 },
  "30d": { days: 30 },
  "90d": { days: 90 },
} as const;
export type RangePreset = keyof typeof RANGE_PRESETS;

/** The longest range a view may ask for. */
export const MAX_RANGE_DAYS = 366;

export function unitFor(from: DateTime, to: DateTime): BucketUnit {
  return to.diff(from, "hours").hours <= 48 ? "hour" : "day";
}

/** The preset ending now: a day-long preset ends with the current day in the merchant's zone. */
export function presetRange(preset: RangePreset, now: DateTime, timezone: string): OpsRange {
  const local = now.setZone(timezone);
  const to =
    preset === "24h" ? local.startOf("hour").plus({ hours: 1 }) : local.startOf("day").plus({ days: 1 });
  const from = to.minus(RANGE_PRESETS[preset]);
  return { from, to, unit: unitFor(from, to), timezone };
}

/** From the first day through the last day inclusive, local dates as yyyy-mm-dd. */
export function dayRange(first: string, last: string, timezone: string): OpsRange | string {
  const from = DateTime.fromISO(first, { zone: timezone });
  const lastDay = DateTime.fromISO(last, { zone: timezone });
  if (!from.isValid) return `from: ${JSON.stringify(first)} is not a date (yyyy-mm-dd)`;
  if (!lastDay.isValid) return `to: ${JSON.stringify(last)} is not a date (yyyy-mm-dd)`;
  const to = lastDay.plus({ days: 1 });
  if (to <= from) return "to: must not be before from";
  if (to.diff(from, "days").days > MAX_RANGE_DAYS) return `the range may span at most ${MAX_RANGE_DAYS} days`;
  return { from, to, unit: unitFor(from, to), timezone };
}

/** Every bucket's start in the range, in order, as the keys the aggregates are filled into. */
export function bucketStarts(range: OpsRange): DateTime[] {
  const starts: DateTime[] = [];
  for (let at = range.from.startOf(range.unit); at < range.to; at = at.plus({ [`${range.unit}s`]: 1 })) {
    starts.push(at);
  }
  return starts;
}
