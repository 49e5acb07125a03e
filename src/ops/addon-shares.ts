import type { Sql } from "postgres";
import { priceOf } from "../billing/index.js";
import { pgInteger } from "../db/index.js";
import { type PriceColumns, priceModelOfColumns } from "../pricing/index.js";

/**
 * Rule: a live add-on (its subscription_addons row not removed) of a paying subscription is billed
 * on every period of its subscription, at its own price model and quantity, as a line beside the
 * plan's (billing/charge-lines.ts periodLines): an add-on has no interval of its own, so in MRR it
 * is a share over its subscription's plan's interval, in that plan's currency (an add-on is only
 * attached in its plan's currency). Its subscriptions are counted in SQL per plan, add-on and
 * quantity, so each price is applied once per group, never once per subscription; and not at all
 * while no add-on is live anywhere, which one probe of subscription_addons_live_idx tells.
 */

/** Paying subscriptions of one plan carrying one add-on at one quantity. */
export interface AddonGroup {
  planId: string;
  /** The add-on's price for one period at that quantity. */
  periodMinor: number;
  subscriptions: number;
}

/** One live add-on of a subscription, as the coupons' query aggregates them (jsonb, snake_case). */
export type AddonPrice = PriceColumns & { quantity: number };

export async function anyLiveAddon(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ live: boolean }[]>`
    select exists (select 1 from subscription_addons where removed_at is null) as live`;
  return row?.live === true;
}

export async function addonGroups(sql: Sql): Promise<AddonGroup[]> {
  // Grouped by a.id, the add-on's primary key, so its price columns may be selected as they are.
  const rows = await sql<(PriceColumns & { plan_id: string; quantity: number; n: string })[]>`
    select s.plan_id, sa.quantity, a.amount_minor::text, a.price_model, a.tiers, a.package_size,
           count(*)::text as n
    from subscription_addons sa
    join subscriptions s on s.id = sa.subscription_id
    join addons a on a.id = sa.addon_id
    where sa.removed_at is null and s.status in ('active', 'past_due')
    group by s.plan_id, a.id, sa.quantity`;
  return rows.map((row) => ({
    planId: row.plan_id,
    periodMinor: addonsPeriodMinor([row]),
    subscriptions: pgInteger(row.n),
  }));
}

/** What these add-ons add to one period's price, together. */
export function addonsPeriodMinor(addons: readonly AddonPrice[]): number {
  return addons.reduce((total, addon) => total + priceOf(priceModelOfColumns(addon), addon.quantity), 0);
}
