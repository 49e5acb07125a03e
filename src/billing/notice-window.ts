import type { DateTime } from "luxon";

/**
 * When a notice before money moves is due. Rule: a renewal or a trial's conversion at `at` is
 * announced once `at` is no more than `days` days ahead, and not once it has come (the charge is
 * then made, and a notice would arrive after it). Days are whole 24-hour days on the billing
 * clock; 0 days means no notice at all.
 */
export interface NoticeWindow {
  /** Exclusive: what is due now is past noticing. */
  readonly after: DateTime;
  /** Inclusive. */
  readonly until: DateTime;
}

export function noticeWindow(now: DateTime, days: number): NoticeWindow | null {
  if (!Number.isSafeInteger(days) || days < 0)
    throw new RangeError(`notice days must be a whole number from 0, got ${days}`);
  if (days === 0) return null;
  return { after: now, until: now.plus({ days }) };
}

/** The calendar day (yyyy-mm-dd) of an instant in the subscription's zone: the day it renews on. */
export function localDay(at: DateTime, zone: string): string {
  const day = at.setZone(zone).toISODate();
  if (day === null) throw new RangeError(`no calendar day for ${at.toISO()} in zone ${zone}`);
  return day;
}
