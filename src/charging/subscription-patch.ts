import type { DateTime } from "luxon";
import { type BillingInterval, periodContaining, type SubscriptionState } from "../billing/index.js";

/**
 * The columns a subscription takes when a charge outcome moves it (chargeOutcome's
 * subscriptionChange). Pure. Keeps the schema's rules: only trialing, active and past_due have a
 * next_billing_at; canceled carries canceled_at.
 *
 * - active: billing goes on from where it was. A subscription coming back from `unpaid` has no
 *   next_billing_at; it resumes at the end of its current period, or, if that is already past, at
 *   the start of the period running now (charged at once). The periods it spent unpaid are not
 *   billed: no service was owed for them.
 * - past_due: only the status; next_billing_at stays, and the scheduler does not renew past_due.
 * - unpaid: stops billing (next_billing_at null) until a payment succeeds.
 * - canceled: ends now, with the reason.
 */
export interface SubscriptionBilling {
  readonly billingAnchor: DateTime | null;
  readonly timezone: string;
  readonly interval: BillingInterval;
  readonly currentPeriodEnd: DateTime | null;
  readonly nextBillingAt: DateTime | null;
}

export interface SubscriptionPatch {
  readonly status: SubscriptionState;
  readonly nextBillingAt?: DateTime | null;
  readonly canceledAt?: DateTime;
  readonly endedReason?: string;
}

export function subscriptionPatch(
  to: SubscriptionState,
  subscription: SubscriptionBilling,
  now: DateTime,
  endedReason: string,
): SubscriptionPatch {
  switch (to) {
    case "active":
      return { status: to, nextBillingAt: subscription.nextBillingAt ?? resumeAt(subscription, now) };
    case "past_due":
      return { status: to };
    case "unpaid":
      return { status: to, nextBillingAt: null };
    case "canceled":
      return { status: to, nextBillingAt: null, canceledAt: now, endedReason };
    default:
      throw new RangeError(`a charge outcome never moves a subscription to ${to}`);
  }
}

function resumeAt(subscription: SubscriptionBilling, now: DateTime): DateTime {
  const { billingAnchor, interval, timezone, currentPeriodEnd } = subscription;
  if (billingAnchor === null) throw new RangeError("a started subscription has a billing anchor");
  if (currentPeriodEnd !== null && currentPeriodEnd > now) return currentPeriodEnd;
  return periodContaining(billingAnchor, interval, now, timezone).start;
}
