import { pgInteger, type SqlRunner } from "../db/index.js";
import type { OneOffCharge } from "./create-one-off.js";

/**
 * The one-off charges waiting for each subscription's next bill (not billed, not canceled), oldest
 * first: what its next period charge takes as lines. The scheduler reads them under the
 * subscriptions' row locks, which createOneOffCharge and cancelOneOffCharge take too.
 */
export async function waitingOneOffs(
  sql: SqlRunner,
  subscriptionIds: readonly string[],
): Promise<Map<string, OneOffCharge[]>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await sql<OneOffRow[]>`
    select id, subscription_id, description, unit_amount_minor, quantity, currency, collect, charge_id
    from one_off_charges
    where subscription_id = any(${subscriptionIds as string[]}::uuid[]) and charge_id is null and canceled_at is null
    order by subscription_id, created_at, id`;
  const bySubscription = new Map<string, OneOffCharge[]>();
  for (const row of rows) {
    const list = bySubscription.get(row.subscription_id) ?? [];
    list.push(oneOffOf(row));
    bySubscription.set(row.subscription_id, list);
  }
  return bySubscription;
}

export interface OneOffRow {
  id: string;
  subscription_id: string;
  description: string;
  unit_amount_minor: string;
  quantity: number;
  currency: string;
  collect: "now" | "next_bill";
  charge_id: string | null;
}

export function oneOffOf(row: OneOffRow): OneOffCharge {
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    description: row.description,
    unitAmountMinor: pgInteger(row.unit_amount_minor),
    quantity: row.quantity,
    currency: row.currency,
    collect: row.collect,
    chargeId: row.charge_id,
  };
}

/** Marks one-offs billed by the period charges just written (charge id per one-off). */
export async function markOneOffsBilled(
  sql: SqlRunner,
  billed: readonly { oneOffId: string; chargeId: string }[],
): Promise<void> {
  if (billed.length === 0) return;
  await sql`
    update one_off_charges o set charge_id = v.charge_id
    from unnest(${billed.map((b) => b.oneOffId)}::uuid[], ${billed.map((b) => b.chargeId)}::uuid[]) as v(id, charge_id)
    where o.id = v.id and o.charge_id is null and o.canceled_at is null`;
}
