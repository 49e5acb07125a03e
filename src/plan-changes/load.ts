import {
  type BillingInterval,
  type CollectionMethod,
  type IntervalUnit,
  type PriceModel,
  type PriceModelName,
  priceOf,
  type SubscriptionState,
} from "../billing/index.js";
import { SubscriptionNotFoundError } from "../cancellation/index.js";
import type { SqlRunner } from "../db/index.js";
import { priceModelOfColumns } from "../pricing/index.js";

/**
 * What a plan change reads, under the subscription's row lock: the subscription with its card, and
 * the two plans. Raw rows, typed once here.
 */
export interface LockedSubscription {
  id: string;
  customer_id: string;
  plan_id: string;
  quantity: number;
  status: SubscriptionState;
  timezone: string;
  billing_anchor: string | null;
  current_period_start: string | null;
  current_period_end: string | null;
  next_billing_at: string | null;
  cancel_at_period_end: boolean;
  collection_method: CollectionMethod;
  credit_minor: string;
  card_kind: "recurring" | "autosave" | null;
  card_amount_minor: string | null;
}

export async function lockSubscriptionForChange(
  sql: SqlRunner,
  subscriptionId: string,
): Promise<LockedSubscription> {
  const [row] = await sql<LockedSubscription[]>`
    select s.id, s.customer_id, s.plan_id, s.quantity, s.status, s.timezone, s.billing_anchor, s.current_period_start,
           s.current_period_end, s.next_billing_at, s.cancel_at_period_end, s.collection_method, s.credit_minor,
           pm.kind as card_kind, pm.amount_minor as card_amount_minor
    from subscriptions s
    left join payment_methods pm on pm.id = s.payment_method_id
    where s.id = ${subscriptionId}
    for update of s`;
  if (!row) throw new SubscriptionNotFoundError(subscriptionId);
  return row;
}

/**
 * A plan as a change weighs it: at a quantity, with amountMinor the price of one period at that
 * quantity (plansById gives quantity 1; atQuantity prices another).
 */
export interface PlanFacts {
  id: string;
  name: string;
  price: PriceModel;
  quantity: number;
  amountMinor: number;
  currency: string;
  interval: BillingInterval;
  billingMode: "recurring" | "autosave";
  archived: boolean;
}

export async function plansById(sql: SqlRunner, ids: readonly string[]): Promise<Map<string, PlanFacts>> {
  const rows = await sql<
    {
      id: string;
      name: string;
      amount_minor: string;
      price_model: PriceModelName;
      tiers: unknown;
      package_size: number | null;
      currency: string;
      interval_unit: IntervalUnit;
      interval_count: number;
      billing_mode: "recurring" | "autosave";
      archived: boolean;
    }[]
  >`
    select id, name, amount_minor, price_model, tiers, package_size, currency, interval_unit, interval_count, billing_mode,
           archived_at is not null as archived
    from plans where id = any(${ids as string[]}::text[]::uuid[])`;
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        name: row.name,
        ...priced(priceModelOfColumns(row), 1),
        currency: row.currency,
        interval: { unit: row.interval_unit, count: row.interval_count },
        billingMode: row.billing_mode,
        archived: row.archived,
      },
    ]),
  );
}

function priced(price: PriceModel, quantity: number) {
  return { price, quantity, amountMinor: priceOf(price, quantity) };
}

/** The plan at another quantity (seats): its period price follows its price model. */
export function atQuantity(plan: PlanFacts, quantity: number): PlanFacts {
  return { ...plan, ...priced(plan.price, quantity) };
}
