/**
 * Rule, the acceptance window of a usage event (pure; times are epoch milliseconds):
 * - the subscription is trialing, active or past_due, and has a current billing period;
 * - a timestamp more than CLOCK_SKEW_MS after now (billing clock) is refused: the merchant's clock
 *   may run a little ahead of ours, not more;
 * - a timestamp in the current period [start, end) is accepted;
 * - a timestamp in the previous period [previous start, current start) is accepted while
 *   now < current start + grace (USAGE_GRACE_HOURS): late events land in the period they happened
 *   in, until that period is closed;
 * - anything older is refused: its period is closed. A timestamp at or after the current period's
 *   end is refused too: that period is not open yet (the renewal has not run).
 */

export const CLOCK_SKEW_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;

export const LIVE_STATUSES: readonly string[] = ["trialing", "active", "past_due"];

/** What the window needs to know about a subscription. */
export interface SubscriptionWindow {
  readonly status: string;
  readonly currentStart: number | null;
  readonly currentEnd: number | null;
  /** Start of the billed period before the current one; null when there was none. */
  readonly previousStart: number | null;
}

export type WindowRefusalCode =
  | "subscription_not_live"
  | "no_open_period"
  | "timestamp_in_future"
  | "period_not_open"
  | "period_closed";

export type WindowVerdict =
  | { readonly ok: true; readonly period: "current" | "previous" }
  | { readonly ok: false; readonly code: WindowRefusalCode; readonly reason: string };

const iso = (ms: number) => new Date(ms).toISOString();

const refuse = (code: WindowRefusalCode, reason: string): WindowVerdict => ({ ok: false, code, reason });

export function judgeTimestamp(
  window: SubscriptionWindow,
  at: number,
  now: number,
  graceHours: number,
): WindowVerdict {
  if (!LIVE_STATUSES.includes(window.status)) {
    return refuse(
      "subscription_not_live",
      `the subscription is ${window.status}; usage is taken only while it is trialing, active or past_due`,
    );
  }
  const { currentStart, currentEnd, previousStart } = window;
  if (currentStart === null || currentEnd === null) {
    return refuse(
      "no_open_period",
      "the subscription has no billing period yet; usage is taken once its first period starts",
    );
  }
  if (at > now + CLOCK_SKEW_MS) {
    return refuse(
      "timestamp_in_future",
      `timestamp ${iso(at)} is more than 5 minutes after the billing clock's now (${iso(now)})`,
    );
  }
  if (at >= currentEnd) {
    return refuse(
      "period_not_open",
      `timestamp ${iso(at)} is at or after the end of the current period (${iso(currentEnd)}); the next period is not open yet`,
    );
  }
  if (at >= currentStart) return { ok: true, period: "current" };
  const closesAt = currentStart + graceHours * HOUR_MS;
  if (previousStart === null) {
    return refuse(
      "period_closed",
      `timestamp ${iso(at)} is before the current period (which started ${iso(currentStart)}) and no earlier period of the subscription takes usage`,
    );
  }
  if (at < previousStart) {
    return refuse(
      "period_closed",
      `timestamp ${iso(at)} is before the previous period (which started ${iso(previousStart)}); its period is closed to usage`,
    );
  }
  if (now >= closesAt) {
    return refuse(
      "period_closed",
      `the period ${iso(previousStart)} – ${iso(currentStart)} is closed: late usage for it was taken until ${iso(closesAt)} (USAGE_GRACE_HOURS=${graceHours})`,
    );
  }
  return { ok: true, period: "previous" };
}
