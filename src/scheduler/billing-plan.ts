import type { DateTime } from "luxon";
import { type BillingInterval, type BillingPeriod, periodAt, periodContaining } from "../billing/index.js";

/**
 * What the scheduler does with a subscription whose next_billing_at has come. Pure.
 *
 * - cancel_at_period_end: the period that just ended was the last; the subscription is canceled as
 *   of that boundary and no charge is created.
 * - otherwise the period starting at next_billing_at is billed, and so is every later period that
 *   has also begun (a subscription that fell behind, e.g. the scheduler was down), at most
 *   `maxPeriods` per tick. Periods come from the anchor in the subscription's zone (periodAt), never
 *   by adding an interval to the last boundary, so the anchor day is kept (Jan 31 → Feb 28 → Mar 31).
 *   The last billed period becomes the current one and next_billing_at moves to its end.
 *
 * A trial ends the same way: its anchor is the trial end, so period 0 is the first paid period.
 */
export interface DueSubscription {
  readonly billingAnchor: DateTime;
  readonly timezone: string;
  readonly interval: BillingInterval;
  readonly nextBillingAt: DateTime;
  readonly cancelAtPeriodEnd: boolean;
}

export type BillingStep =
  | { readonly kind: "cancel"; readonly at: DateTime }
  | {
      readonly kind: "bill";
      /** Oldest first; the last is the new current period. */
      readonly periods: readonly BillingPeriod[];
      readonly nextBillingAt: DateTime;
    };

export function planBilling(subscription: DueSubscription, now: DateTime, maxPeriods: number): BillingStep {
  if (!Number.isSafeInteger(maxPeriods) || maxPeriods < 1) {
    throw new RangeError(`maxPeriods must be a whole number from 1, got ${maxPeriods}`);
  }
  const { billingAnchor, interval, timezone, nextBillingAt } = subscription;
  if (nextBillingAt > now) throw new RangeError("the subscription is not due yet");
  if (subscription.cancelAtPeriodEnd) return { kind: "cancel", at: nextBillingAt.toUTC() };

  const periods = [periodContaining(billingAnchor, interval, nextBillingAt, timezone)];
  let last = periods[0]!;
  while (periods.length < maxPeriods && last.end <= now) {
    last = periodAt(billingAnchor, interval, last.index + 1, timezone);
    periods.push(last);
  }
  return { kind: "bill", periods, nextBillingAt: last.end };
}
