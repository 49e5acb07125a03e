import type { Sql } from "postgres";
import {
  couponTerms,
  discountMinor,
  type IntervalUnit,
  monthlyRecurringMinor,
  type PlanShare,
  type PriceModelName,
  priceOf,
  SUBSCRIPTION_STATES,
  type SubscriptionState,
} from "../billing/index.js";
import { pgInteger } from "../db/index.js";
import { priceModelOfColumns, termFieldsOf } from "../pricing/index.js";
import { type AddonPrice, addonGroups, addonsPeriodMinor, anyLiveAddon } from "./addon-shares.js";
import type { OpsRange } from "./range.js";

/**
 * Subscriptions at a glance: how many are in each state, the MRR of those that pay (active and
 * past_due: a past_due subscription is still billed until dunning ends) with their live add-ons
 * (addon-shares.ts), net of their live coupons (each taken off its plan's and add-ons' price
 * together, as a period's charge takes it), and churn in the range. Usage is not recurring and is
 * not in MRR: it is read from its charges apart (usage-revenue.ts).
 * Counts come from an index-only scan of all of subscriptions_status_plan_idx, grouped by state and plan,
 * so the plans' prices are applied per plan rather than per row; a plan whose price follows the
 * quantity (seats) is priced per plan and quantity, from a second scan of its paying subscriptions
 * alone (none when every plan is flat); churn from
 * subscriptions_canceled_at_idx. Churn is canceled in the range ÷ (live now + canceled in the
 * range), live being every state but pending_enrollment and canceled.
 */

const PAYING: readonly SubscriptionState[] = ["active", "past_due"];
const LIVE: readonly SubscriptionState[] = ["trialing", "active", "past_due", "unpaid", "paused"];

export interface SubscriptionOverview {
  counts: Record<SubscriptionState, number>;
  /** MRR per currency, minor units. */
  mrr: { currency: string; amountMinor: number }[];
  churn: { canceled: number; rate: number | null };
}

interface CountRow {
  status: SubscriptionState;
  plan_id: string;
  n: string;
}

interface QuantityRow {
  plan_id: string;
  quantity: number;
  n: string;
}

interface DiscountRow {
  plan_id: string;
  quantity: number;
  addons: AddonPrice[];
  discount_type: "percentage" | "fixed";
  percent_off: number | null;
  amount_off_minor: string | null;
  currency: string | null;
  n: string;
}

interface PlanRow {
  id: string;
  amount_minor: string;
  price_model: PriceModelName;
  tiers: unknown;
  package_size: number | null;
  currency: string;
  interval_unit: IntervalUnit;
  interval_count: number;
}

export async function subscriptionOverview(sql: Sql, range: OpsRange): Promise<SubscriptionOverview> {
  const [countRows, plans, [canceledRow], discountRows, withAddons] = await Promise.all([
    sql<CountRow[]>`select status::text, plan_id, count(*)::text as n from subscriptions group by 1, 2`,
    sql<PlanRow[]>`
      select id, amount_minor::text, price_model, tiers, package_size, currency, interval_unit::text, interval_count
      from plans`,
    sql<{ n: string }[]>`
      select count(*)::text as n from subscriptions
      where canceled_at is not null
        and canceled_at >= ${range.from.toUTC().toISO()}::timestamptz
        and canceled_at < ${range.to.toUTC().toISO()}::timestamptz`,
    // Live discounts are few beside subscriptions: read from the discounts' side, each with its
    // subscription's live add-ons (the coupon takes its share of them too), ordered by add-on so
    // that subscriptions carrying the same ones group together.
    sql<DiscountRow[]>`
      select s.plan_id, s.quantity, x.addons, c.discount_type::text, c.percent_off, c.amount_off_minor::text,
             c.currency, count(*)::text as n
      from subscription_discounts d
      join subscriptions s on s.id = d.subscription_id
      join coupons c on c.id = d.coupon_id
      cross join lateral (
        select coalesce(jsonb_agg(jsonb_build_object(
                 'amount_minor', a.amount_minor::text, 'price_model', a.price_model, 'tiers', a.tiers,
                 'package_size', a.package_size, 'quantity', sa.quantity) order by a.id), '[]'::jsonb) as addons
        from subscription_addons sa join addons a on a.id = sa.addon_id
        where sa.subscription_id = s.id and sa.removed_at is null) x
      where d.ended_at is null and s.status in ('active', 'past_due')
      group by 1, 2, 3, 4, 5, 6, 7`,
    anyLiveAddon(sql),
  ]);
  const byQuantity = plans.filter((p) => p.price_model !== "flat").map((p) => p.id);
  const [quantityRows, addons] = await Promise.all([
    byQuantity.length === 0
      ? []
      : sql<QuantityRow[]>`
          select plan_id, quantity, count(*)::text as n from subscriptions
          where status in ('active', 'past_due') and plan_id = any(${byQuantity}::uuid[])
          group by 1, 2`,
    withAddons ? addonGroups(sql) : [],
  ]);
  const counts = Object.fromEntries(SUBSCRIPTION_STATES.map((s) => [s, 0])) as Record<
    SubscriptionState,
    number
  >;
  const planById = new Map(plans.map((p) => [p.id, p]));
  const sharesByCurrency = new Map<string, PlanShare[]>();
  const share = (plan: PlanRow, amountMinor: number, subscriptions: number) => {
    const shares = sharesByCurrency.get(plan.currency) ?? [];
    shares.push({
      amountMinor,
      intervalUnit: plan.interval_unit,
      intervalCount: plan.interval_count,
      subscriptions,
    });
    sharesByCurrency.set(plan.currency, shares);
  };
  for (const row of countRows) {
    const n = pgInteger(row.n);
    counts[row.status] += n;
    const plan = planById.get(row.plan_id);
    if (!plan || !PAYING.includes(row.status) || plan.price_model !== "flat") continue;
    share(plan, pgInteger(plan.amount_minor), n);
  }
  for (const row of quantityRows) {
    const plan = planById.get(row.plan_id)!;
    share(plan, periodPrice(plan, row.quantity), pgInteger(row.n));
  }
  for (const group of addons) {
    const plan = planById.get(group.planId);
    if (plan) share(plan, group.periodMinor, group.subscriptions);
  }
  for (const row of discountRows) {
    const plan = planById.get(row.plan_id);
    if (!plan) continue;
    const terms = couponTerms(termFieldsOf(row));
    // A discount is a share with a negative price: the fractions are still summed exactly.
    sharesByCurrency.get(plan.currency)?.push({
      amountMinor: -discountMinor(terms, periodPrice(plan, row.quantity) + addonsPeriodMinor(row.addons)),
      intervalUnit: plan.interval_unit,
      intervalCount: plan.interval_count,
      subscriptions: pgInteger(row.n),
    });
  }
  const canceled = pgInteger(canceledRow?.n ?? 0);
  const live = LIVE.reduce((total, state) => total + counts[state], 0);
  return {
    counts,
    mrr: [...sharesByCurrency]
      .map(([currency, shares]) => ({ currency, amountMinor: monthlyRecurringMinor(shares) }))
      .sort((a, b) => b.amountMinor - a.amountMinor),
    churn: { canceled, rate: live + canceled === 0 ? null : canceled / (live + canceled) },
  };
}

function periodPrice(plan: PlanRow, quantity: number): number {
  return priceOf(priceModelOfColumns(plan), quantity);
}
