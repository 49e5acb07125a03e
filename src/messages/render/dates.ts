import { DateTime } from "luxon";
import type { MessageLanguage } from "./model.js";

/**
 * Dates as the customer reads them, in their own time zone: "27 November 2026", Arabic
 * "27 نوفمبر 2026". A bare ISO date (yyyy-mm-dd) is a calendar day and is shown as that day; a
 * date-time is moved into the customer's zone first. Arabic uses ar-QA's month names with Western
 * digits (numberingSystem "latn"), the digits the amounts use (amount.ts): ar-QA alone would write
 * Arabic-Indic ones.
 */

const LOCALES: Record<MessageLanguage, string> = { en: "en-GB", ar: "ar-QA" };

const FORMATS = {
  date: "d MMMM yyyy",
  month: "MMMM yyyy",
  dateTime: { en: "d MMMM yyyy, HH:mm", ar: "d MMMM yyyy، HH:mm" },
} as const;

export type DateStyle = keyof typeof FORMATS;

export function checkTimeZone(zone: string): void {
  if (!DateTime.now().setZone(zone).isValid)
    throw new RangeError(`unknown time zone ${JSON.stringify(zone)}`);
}

export function formatDate(iso: string, style: DateStyle, language: MessageLanguage, zone: string): string {
  const parsed = DateTime.fromISO(iso, { zone });
  if (!parsed.isValid)
    throw new RangeError(`${JSON.stringify(iso)} is not an ISO date (${parsed.invalidExplanation})`);
  const format = FORMATS[style];
  return parsed
    .reconfigure({ locale: LOCALES[language], numberingSystem: "latn", outputCalendar: "gregory" })
    .toFormat(typeof format === "string" ? format : format[language]);
}
