import type { ChargeState, SubscriptionState } from "../billing/index.js";
import { pgInstantOrNull, pgInteger, type SqlTx } from "../db/index.js";
import type { LockedCharge, LockedSubscription } from "./decide-outcome.js";

/**
 * Rule: rows are locked subscription first, then charge, each set in id order, for the rest of the
 * caller's transaction. The scheduler, cancellation and the one-charge paths (apply-outcome.ts) take
 * the subscription first too, and sorted lock order keeps two batches from deadlocking each other.
 * Two prepared statements whatever the batch size; declines on the current card are counted in the
 * charge query (only those since the card was saved count, see decide-outcome.ts).
 *
 * Returns the locked charges by id; an id that does not exist is absent.
 */
interface SubscriptionRow {
  id: string;
  customer_id: string;
  status: SubscriptionState;
  canceled_at: string | null;
  payment_method_id: string | null;
  billing_anchor: string | null;
  timezone: string;
  interval_unit: "day" | "week" | "month" | "year";
  interval_count: number;
  current_period_end: string | null;
  next_billing_at: string | null;
}

interface ChargeRow {
  id: string;
  subscription_id: string;
  status: ChargeState;
  first_failed_at: string | null;
  amount_minor: string;
  currency: string;
  declines_on_card: number;
}

export async function lockCharges(
  tx: SqlTx,
  chargeIds: readonly string[],
): Promise<Map<string, LockedCharge>> {
  const ids = [...chargeIds];
  const subscriptionRows = await tx<SubscriptionRow[]>`
    select s.id, s.customer_id, s.status, s.canceled_at, s.payment_method_id, s.billing_anchor,
           s.timezone, p.interval_unit, p.interval_count, s.current_period_end, s.next_billing_at
    from subscriptions s
    join plans p on p.id = s.plan_id
    where s.id in (select subscription_id from charges where id = any(${ids}::uuid[]))
    order by s.id
    for update of s`;
  const chargeRows = await tx<ChargeRow[]>`
    select c.id, c.subscription_id, c.status, c.first_failed_at, c.amount_minor, c.currency,
           (select count(*) from charge_attempts a
             where a.charge_id = c.id and a.status = 'declined'
               and a.created_at >= coalesce(
                 (select pm.created_at from subscriptions s
                    join payment_methods pm on pm.id = s.payment_method_id
                   where s.id = c.subscription_id),
                 '-infinity'))::int as declines_on_card
    from charges c
    where c.id = any(${ids}::uuid[])
    order by c.id
    for update of c`;

  const subscriptions = new Map(subscriptionRows.map((row) => [row.id, subscriptionOf(row)]));
  const locked = new Map<string, LockedCharge>();
  for (const row of chargeRows) {
    const subscription = subscriptions.get(row.subscription_id);
    if (!subscription) continue;
    locked.set(row.id, {
      charge: {
        id: row.id,
        status: row.status,
        firstFailedAt: pgInstantOrNull(row.first_failed_at),
        amountMinor: pgInteger(row.amount_minor),
        currency: row.currency,
      },
      subscription,
      declinesOnCard: row.declines_on_card,
    });
  }
  return locked;
}

function subscriptionOf(row: SubscriptionRow): LockedSubscription {
  return {
    id: row.id,
    customerId: row.customer_id,
    status: row.status,
    canceledAt: pgInstantOrNull(row.canceled_at),
    paymentMethodId: row.payment_method_id,
    billingAnchor: pgInstantOrNull(row.billing_anchor),
    timezone: row.timezone,
    interval: { unit: row.interval_unit, count: row.interval_count },
    currentPeriodEnd: pgInstantOrNull(row.current_period_end),
    nextBillingAt: pgInstantOrNull(row.next_billing_at),
  };
}
