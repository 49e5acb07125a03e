import type { DateTime } from "luxon";

/**
 * Quiet hours: no e-mail reaches a customer between `start` and `end` o'clock on their own clock
 * (MESSAGE_QUIET_HOURS, e.g. 21-8). The window is read on the wall clock of `zone`, start included
 * and end excluded, and may run over midnight (start > end). A message that comes due inside it
 * waits until the window ends: the first instant whose local hour is `end`, at :00. On a day when
 * a DST change skips that hour, luxon moves the end forward by the skipped time, so it is never
 * before now.
 */

export interface QuietHours {
  /** Hour of the day (0-23) at which quiet begins. */
  start: number;
  /** Hour of the day (0-23) at which quiet ends; differs from start. */
  end: number;
}

function checkHour(name: string, hour: number): void {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) {
    throw new RangeError(`quiet hours ${name} must be a whole hour from 0 to 23, got ${hour}`);
  }
}

/** When quiet ends if `now` falls inside the quiet hours of `zone`, else null (send now). */
export function quietUntil(now: DateTime, zone: string, hours: QuietHours): DateTime | null {
  checkHour("start", hours.start);
  checkHour("end", hours.end);
  if (hours.start === hours.end) throw new RangeError("quiet hours must start and end at different hours");
  const local = now.setZone(zone);
  if (!local.isValid) throw new RangeError(`unknown time zone ${JSON.stringify(zone)}`);
  const { hour } = local;
  const overMidnight = hours.start > hours.end;
  const quiet = overMidnight
    ? hour >= hours.start || hour < hours.end
    : hour >= hours.start && hour < hours.end;
  if (!quiet) return null;
  // Past midnight already (or a window within one day): quiet ends today; before it, tomorrow.
  const endsTomorrow = overMidnight && hour >= hours.start;
  return local
    .startOf("day")
    .plus({ days: endsTomorrow ? 1 : 0 })
    .set({ hour: hours.end, minute: 0, second: 0, millisecond: 0 });
}
