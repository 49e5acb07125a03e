import type { PriceModel, PriceModelName } from "../billing/index.js";
import type { SqlRunner } from "../db/index.js";
import { priceModelOfColumns } from "../pricing/index.js";

/**
 * The add-ons each subscription carries now (not removed), with their price models and
 * quantities, oldest first: what its next period's charge bills beside the plan (the scheduler and
 * the preview read them the same way). One query for a batch of subscriptions.
 */
export interface LiveAddon {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  readonly currency: string;
  readonly price: PriceModel;
  readonly quantity: number;
}

interface Row {
  subscription_id: string;
  id: string;
  code: string;
  name: string;
  currency: string;
  amount_minor: string;
  price_model: PriceModelName;
  tiers: unknown;
  package_size: number | null;
  quantity: number;
}

export async function liveAddons(
  sql: SqlRunner,
  subscriptionIds: readonly string[],
): Promise<Map<string, LiveAddon[]>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await sql<Row[]>`
    select sa.subscription_id, a.id, a.code, a.name, a.currency, a.amount_minor, a.price_model, a.tiers,
           a.package_size, sa.quantity
    from subscription_addons sa
    join addons a on a.id = sa.addon_id
    where sa.subscription_id = any(${subscriptionIds as string[]}::uuid[]) and sa.removed_at is null
    order by sa.subscription_id, sa.added_at, sa.id`;
  const bySubscription = new Map<string, LiveAddon[]>();
  for (const row of rows) {
    const list = bySubscription.get(row.subscription_id) ?? [];
    list.push({
      id: row.id,
      code: row.code,
      name: row.name,
      currency: row.currency,
      quantity: row.quantity,
      price: priceModelOfColumns(row),
    });
    bySubscription.set(row.subscription_id, list);
  }
  return bySubscription;
}
