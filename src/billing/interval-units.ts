/**
 * The units a plan's period is counted in. A module of its own, free of luxon, so the CLI can list
 * them in `plans create --help` without loading the period arithmetic.
 */
export const INTERVAL_UNITS = ["day", "week", "month", "year"] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];
