import { DAY_MS, HOUR_MS, nextMidnightUtc } from "../support/time.js";
import { isSettled, type Payment } from "./payment.js";

/**
 * Settlement and the refund windows. A merchant's payments settle at its daily cutoff (default
 * 20:00 GMT on the simulator clock): a payment settles at the first cutoff strictly after it was made.
 */
export function settlementTime(paidAt: number, cutoff: string | null): number | null {
  if (cutoff === null) return null;
  // GMT has no daylight saving, so days are plain 24-hour blocks of epoch milliseconds.
  const [hour = 0, minute = 0] = cutoff.split(":").map(Number);
  const today = paidAt - (paidAt % DAY_MS) + hour * HOUR_MS + minute * 60_000;
  return today > paidAt ? today : today + DAY_MS;
}

/** Legacy: the bank returns the money directly within 24 hours of the payment (strictly) and before settlement. */
export function legacyRefundIsDirect(payment: Payment, now: number): boolean {
  return now - payment.createdAt < 24 * HOUR_MS && !isSettled(payment, now);
}

/** v1: directly before the first midnight GMT after the payment and before settlement. */
export function v1RefundIsDirect(payment: Payment, now: number): boolean {
  return now < nextMidnightUtc(payment.createdAt) && !isSettled(payment, now);
}
