import { DateTime } from "luxon";

/**
 * Instants on the dashboard, in the billing time zone its range picker names, so a date in a table
 * reads on the same calendar as the range and the periods (the read models give UTC ISO strings).
 */

type Instant = string | DateTime | null | undefined;

function format(at: Instant, zone: string, pattern: string): string {
  if (!at) return "–";
  return (typeof at === "string" ? DateTime.fromISO(at) : at).setZone(zone).toFormat(pattern);
}

/** To the minute: 2026-11-27 14:05. */
export const when = (at: Instant, zone: string) => format(at, zone, "yyyy-MM-dd HH:mm");

/** The day alone: 2026-11-27. */
export const day = (at: Instant, zone: string) => format(at, zone, "yyyy-MM-dd");
