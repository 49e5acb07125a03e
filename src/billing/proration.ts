import type { DateTime } from "luxon";
import { discountMinor } from "./discount.js";
import { type BillingInterval, type BillingPeriod, periodAt } from "./periods.js";
import type { ProrationBehavior } from "./proration-behaviors.js";
import { mulDivHalfUp } from "./rounding.js";

/**
 * What a plan change costs, pure. Rules:
 * - `immediate_prorate`: the customer is credited for the unused part of the current period at the
 *   old price and debited for the same part at the new price. The part is measured in milliseconds
 *   of the period as the subscription's zone bounds it (a month in Asia/Qatar is its local month,
 *   a DST day has 23 or 25 hours), and each amount is rounded half up to the minor unit once, from
 *   the exact fraction. debit − credit > 0 is collected at once as its own charge; < 0 is kept as
 *   credit that the next charges use up; 0 costs nothing.
 * - a different interval (monthly → yearly) re-anchors: the new plan's first period starts at the
 *   change, so the debit is its whole price; the credit is as above.
 * - `at_period_end`: nothing is prorated; the new plan starts with the next period (re-anchored
 *   there when its interval differs).
 * - `none`: the plan changes now, nothing is credited or debited; a new interval re-anchors now and
 *   the new period is billed at once at full price.
 * - a trialing subscription paid nothing, so every change is `none`-like and keeps the trial's end
 *   as the anchor of the first paid period.
 */

export interface PricedPlan {
  readonly amountMinor: number;
  readonly interval: BillingInterval;
}

export interface PlanChangeInput {
  readonly behavior: ProrationBehavior;
  readonly trialing: boolean;
  /** The current period [start, end); `at` lies in it. */
  readonly period: { readonly start: DateTime; readonly end: DateTime };
  readonly at: DateTime;
  readonly from: PricedPlan;
  readonly to: PricedPlan;
  readonly timezone: string;
}

export type PlanChangeQuote =
  | {
      readonly kind: "scheduled";
      /** The end of the current period, when the change takes effect. */
      readonly effectiveAt: DateTime;
      readonly reanchor: boolean;
    }
  | {
      readonly kind: "now";
      readonly effectiveAt: DateTime;
      readonly creditMinor: number;
      readonly debitMinor: number;
      /** debit − credit: collect it when positive, keep −net as credit when negative. */
      readonly netMinor: number;
      /**
       * Set when the interval changed and the subscription is billed from the change on: the new
       * anchor and first period, whose debit (less credit) is charged as that period's charge.
       */
      readonly reanchored: BillingPeriod | null;
    };

/** Intervals of the same length: a year is 12 months, a week 7 days. */
export function sameInterval(a: BillingInterval, b: BillingInterval): boolean {
  const size = (i: BillingInterval) =>
    i.unit === "year"
      ? `m${12 * i.count}`
      : i.unit === "month"
        ? `m${i.count}`
        : i.unit === "week"
          ? `d${7 * i.count}`
          : `d${i.count}`;
  return size(a) === size(b);
}

export function quotePlanChange(input: PlanChangeInput): PlanChangeQuote {
  const { period, at, from, to, timezone } = input;
  const start = period.start.toMillis();
  const end = period.end.toMillis();
  const now = at.toMillis();
  if (!(end > start)) throw new RangeError("the current period must end after it starts");
  if (now < start || now >= end) {
    throw new RangeError(`the change at ${at.toUTC().toISO()} is outside the current period`);
  }
  const reanchor = !sameInterval(from.interval, to.interval);
  if (input.behavior === "at_period_end") {
    return { kind: "scheduled", effectiveAt: period.end.toUTC(), reanchor };
  }
  const effectiveAt = at.toUTC();
  const firstPeriod = () => periodAt(effectiveAt, to.interval, 0, timezone);
  if (input.trialing || input.behavior === "none") {
    // A trial keeps its end as the anchor; a paid period switched with `none` starts afresh only
    // when its length changes, and then the new first period is billed in full.
    const reanchored = reanchor && !input.trialing ? firstPeriod() : null;
    const debitMinor = reanchored ? to.amountMinor : 0;
    return { kind: "now", effectiveAt, creditMinor: 0, debitMinor, netMinor: debitMinor, reanchored };
  }
  const unused = end - now;
  const length = end - start;
  const creditMinor = mulDivHalfUp(from.amountMinor, unused, length);
  const debitMinor = reanchor ? to.amountMinor : mulDivHalfUp(to.amountMinor, unused, length);
  return {
    kind: "now",
    effectiveAt,
    creditMinor,
    debitMinor,
    netMinor: debitMinor - creditMinor,
    reanchored: reanchor ? firstPeriod() : null,
  };
}

/** What the current period's own charge cost, read from it. */
export interface PeriodCost {
  /** What it asked for before credit (the price less its coupon); 0 when its payment was refunded. */
  readonly paid: number;
  /** The coupon's percentage it carried. */
  readonly discountPercent: number | null;
}

/**
 * The two prices immediate_prorate weighs: the old is what the period cost (the plan's price when
 * the period had no charge of its own); the new is what a period of the new plan costs under the
 * same percentage coupon, so the coupon's share stays the customer's on both sides. A re-anchored
 * first period is priced as a whole period (the live coupon is applied to it as to any period).
 */
export function pricesForProration<P extends PricedPlan>(
  from: P,
  to: P,
  cost: PeriodCost | null,
): { from: P; to: P } {
  const percent = cost?.discountPercent ?? null;
  const underCoupon = percent !== null && sameInterval(from.interval, to.interval);
  return {
    from: { ...from, amountMinor: cost?.paid ?? from.amountMinor },
    to: underCoupon
      ? {
          ...to,
          amountMinor:
            to.amountMinor - discountMinor({ type: "percentage", percentOff: percent }, to.amountMinor),
        }
      : to,
  };
}
