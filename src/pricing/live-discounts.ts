import type { DateTime } from "luxon";
import {
  type CouponDurationTerms,
  type CouponTermFields,
  type CouponTerms,
  couponTerms,
} from "../billing/index.js";
import { pgInteger, type SqlRunner } from "../db/index.js";

/**
 * The live discount (coupon redeemed, not ended) of each subscription, read with the periods it has
 * already discounted, and the write-back once charges used it. Rule: a discount's periods are
 * counted in the transaction that creates the charges it discounted, so a period is never
 * discounted twice and a `once` coupon ends with the charge that used it.
 */
export type LiveDiscount = CouponTerms &
  CouponDurationTerms & {
    readonly id: string;
    readonly couponId: string;
    readonly code: string;
    readonly periodsApplied: number;
  };

interface DiscountRow {
  id: string;
  subscription_id: string;
  coupon_id: string;
  code: string;
  discount_type: "percentage" | "fixed";
  percent_off: number | null;
  amount_off_minor: string | null;
  currency: string | null;
  duration: "once" | "repeating" | "forever";
  duration_periods: number | null;
  periods_applied: number;
}

export async function liveDiscounts(
  sql: SqlRunner,
  subscriptionIds: readonly string[],
): Promise<Map<string, LiveDiscount>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await sql<DiscountRow[]>`
    select d.id, d.subscription_id, d.coupon_id, c.code, c.discount_type, c.percent_off, c.amount_off_minor,
           c.currency, c.duration, c.duration_periods, d.periods_applied
    from subscription_discounts d
    join coupons c on c.id = d.coupon_id
    where d.subscription_id = any(${subscriptionIds as string[]}::uuid[]) and d.ended_at is null`;
  return new Map(rows.map((row) => [row.subscription_id, discountOf(row)]));
}

function discountOf(row: DiscountRow): LiveDiscount {
  return {
    ...couponTerms(termFieldsOf(row)),
    id: row.id,
    couponId: row.coupon_id,
    code: row.code,
    periodsApplied: row.periods_applied,
    duration: row.duration,
    durationPeriods: row.duration_periods,
  };
}

/** A raw coupon row's term columns, as couponTerms reads them. */
export function termFieldsOf(row: {
  discount_type: "percentage" | "fixed";
  percent_off: number | null;
  amount_off_minor: string | null;
  currency: string | null;
}): CouponTermFields {
  return {
    discountType: row.discount_type,
    percentOff: row.percent_off,
    amountOffMinor: row.amount_off_minor === null ? null : pgInteger(row.amount_off_minor),
    currency: row.currency,
  };
}

export interface DiscountUse {
  readonly discountId: string;
  readonly couponId: string;
  /** Periods this write discounted. */
  readonly periods: number;
  /** The last of them was the discount's last period. */
  readonly ended: boolean;
}

export async function recordDiscountUse(
  sql: SqlRunner,
  uses: readonly DiscountUse[],
  now: DateTime,
): Promise<void> {
  if (uses.length === 0) return;
  await sql`
    update subscription_discounts d set
      periods_applied = d.periods_applied + u.periods,
      ended_at = case when u.ended then ${now.toUTC().toISO()}::timestamptz else d.ended_at end
    from unnest(${uses.map((u) => u.discountId)}::text[]::uuid[], ${uses.map((u) => String(u.periods))}::text[]::int[],
                ${uses.map((u) => String(u.ended))}::text[]::bool[]) as u(id, periods, ended)
    where d.id = u.id`;
}
