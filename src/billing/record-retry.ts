import type { DateTime } from "luxon";
import { exponentialBackoff } from "./backoff.js";

/**
 * When a paid charge's record at the gateway (a paid v1 invoice) is sent again after a failure.
 * Rule: doubling delays from five minutes, capped at a day, with full jitter so records that
 * failed together (the gateway was down) do not come back together; after the twelfth attempt the
 * record is given up (failed, for a person to look at). The delays' ceilings add up to almost four
 * days (about two on average), so an outage of a day is ridden out. Nothing here touches the
 * charge, which stays paid.
 */
export const RECORD_MAX_ATTEMPTS = 12;
const BASE_MS = 5 * 60_000;
const CAP_MS = 24 * 3_600_000;

/** When to try again after `attempts` attempts failed, or null when that was the last one. */
export function nextRecordAttempt(
  attempts: number,
  now: DateTime,
  random: () => number = Math.random,
): DateTime | null {
  if (!Number.isSafeInteger(attempts) || attempts < 1)
    throw new RangeError(`attempts must be a whole number from 1, got ${attempts}`);
  if (attempts >= RECORD_MAX_ATTEMPTS) return null;
  const delayMs = exponentialBackoff({
    attempt: attempts - 1,
    baseMs: BASE_MS,
    capMs: CAP_MS,
    jitter: "full",
    random,
  });
  return now.plus({ milliseconds: delayMs });
}
