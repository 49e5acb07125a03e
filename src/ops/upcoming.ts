import type { DateTime } from "luxon";
import type { Sql } from "postgres";
import { pgInstant, pgInteger } from "../db/index.js";

/**
 * What is coming: renewals due in the next 24 hours and 7 days (count and amount per currency, from
 * subscriptions_due_idx, index-only, counted per plan so prices are applied per plan), and the saved cards of
 * live subscriptions that stop working within 30 days (payment_methods_expires_idx), the first few
 * listed so someone can reach out before the renewal fails. A card is its subscription's current
 * one when that subscription, reached by primary key from payment_methods.subscription_id (every
 * card is saved for the subscription that enrolled it), names it back: subscriptions has no index
 * on payment_method_id. The list walks the expiry index in order and stops at the few it shows
 * (the lateral's offset 0 keeps the planner from joining every card in the window first); the
 * total is counted apart.
 */

export interface Renewals {
  within: "24h" | "7d";
  count: number;
  amounts: { currency: string; amountMinor: number }[];
}

export interface ExpiringCard {
  paymentMethodId: string;
  subscriptionId: string;
  customerEmail: string;
  cardLast4: string | null;
  expiresAt: string;
}

export interface Upcoming {
  renewals: Renewals[];
  expiringCards: { count: number; first: ExpiringCard[] };
}

const EXPIRY_WINDOW_DAYS = 30;
const LISTED = 10;

interface RenewalRow {
  within: "24h" | "7d";
  currency: string;
  n: string;
  amount: string;
}

interface CardRow {
  payment_method_id: string;
  subscription_id: string;
  email: string;
  card_last4: string | null;
  expires_at: string;
}

export async function upcoming(sql: Sql, now: DateTime): Promise<Upcoming> {
  const at = now.toUTC().toISO();
  const usableCardsExpiring = sql`
    pm.deactivated_at is null and pm.unusable_at is null
    and pm.expires_at >= ${at}::timestamptz
    and pm.expires_at < ${at}::timestamptz + make_interval(days => ${EXPIRY_WINDOW_DAYS})`;
  const [renewalRows, cardRows, [cardCount]] = await Promise.all([
    sql<RenewalRow[]>`
      with due as (
        select plan_id, count(*) filter (where next_billing_at < ${at}::timestamptz + interval '24 hours') as day,
               count(*) as week
        from subscriptions
        where status in ('trialing', 'active', 'past_due') and next_billing_at is not null
          and next_billing_at >= ${at}::timestamptz and next_billing_at < ${at}::timestamptz + interval '7 days'
        group by plan_id
      )
      select w.within, p.currency, sum(w.n)::text as n, sum(w.n * p.amount_minor)::text as amount
      from due
      join plans p on p.id = due.plan_id
      cross join lateral (values ('24h', due.day), ('7d', due.week)) as w(within, n)
      group by 1, 2`,
    sql<CardRow[]>`
      select pm.id as payment_method_id, s.id as subscription_id, cu.email, pm.card_last4,
             pm.expires_at::text
      from payment_methods pm
      cross join lateral (
        select s.id, s.customer_id from subscriptions s
        where s.id = pm.subscription_id and s.payment_method_id = pm.id
          and s.status in ('trialing', 'active', 'past_due')
        offset 0) s
      join customers cu on cu.id = s.customer_id
      where ${usableCardsExpiring}
      order by pm.expires_at
      limit ${LISTED}`,
    sql<{ n: string }[]>`
      select count(*)::text as n
      from payment_methods pm
      join subscriptions s on s.id = pm.subscription_id and s.payment_method_id = pm.id
      where ${usableCardsExpiring} and s.status in ('trialing', 'active', 'past_due')`,
  ]);
  const renewals = (["24h", "7d"] as const).map((within) => {
    const rows = renewalRows.filter((r) => r.within === within);
    return {
      within,
      count: rows.reduce((total, r) => total + pgInteger(r.n), 0),
      amounts: rows
        .map((r) => ({ currency: r.currency, amountMinor: pgInteger(r.amount) }))
        .filter((a) => a.amountMinor > 0),
    };
  });
  return {
    renewals,
    expiringCards: {
      count: pgInteger(cardCount?.n ?? 0),
      first: cardRows.map((r) => ({
        paymentMethodId: r.payment_method_id,
        subscriptionId: r.subscription_id,
        customerEmail: r.email,
        cardLast4: r.card_last4,
        expiresAt: pgInstant(r.expires_at).toISO() ?? "",
      })),
    },
  };
}
