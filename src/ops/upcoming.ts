import type { DateTime } from "luxon";
import type { Sql } from "postgres";
import { type PriceModelName, priceOf } from "../billing/index.js";
import { pgInstant, pgInteger } from "../db/index.js";
import { priceModelOfColumns } from "../pricing/index.js";

/**
 * What is coming: renewals due in the next 24 hours and 7 days (count and amount per currency, from
 * subscriptions_due_idx, index-only, counted per plan so prices are applied per plan; a plan whose
 * price follows the quantity is counted per plan and quantity, reading its subscriptions' rows), and the saved cards of
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
  plan_id: string;
  quantity: number;
  day: string;
  week: string;
}

interface PlanRow {
  id: string;
  currency: string;
  amount_minor: string;
  price_model: PriceModelName;
  tiers: unknown;
  package_size: number | null;
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
  const plans = await sql<PlanRow[]>`
    select id, currency, amount_minor::text, price_model, tiers, package_size from plans`;
  const byQuantity = plans.filter((p) => p.price_model !== "flat").map((p) => p.id);
  const dueIn = (extra: ReturnType<typeof sql>) => sql`
    status in ('trialing', 'active', 'past_due') and next_billing_at is not null
    and next_billing_at >= ${at}::timestamptz and next_billing_at < ${at}::timestamptz + interval '7 days'
    and ${extra}`;
  const counted = sql`count(*) filter (where next_billing_at < ${at}::timestamptz + interval '24 hours')::text as day,
                      count(*)::text as week`;
  const [renewalRows, cardRows, [cardCount]] = await Promise.all([
    sql<RenewalRow[]>`
      select plan_id, 1 as quantity, ${counted} from subscriptions
      where ${dueIn(sql`plan_id <> all(${byQuantity}::uuid[])`)} group by plan_id
      union all
      select plan_id, quantity, ${counted} from subscriptions
      where ${dueIn(sql`plan_id = any(${byQuantity}::uuid[])`)} group by plan_id, quantity`,
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
  const planById = new Map(plans.map((p) => [p.id, p]));
  const renewals = (["24h", "7d"] as const).map((within) => {
    const byCurrency = new Map<string, number>();
    let count = 0;
    for (const row of renewalRows) {
      const plan = planById.get(row.plan_id);
      const n = pgInteger(within === "24h" ? row.day : row.week);
      if (!plan || n === 0) continue;
      count += n;
      const price = priceOf(priceModelOfColumns(plan), row.quantity);
      byCurrency.set(plan.currency, (byCurrency.get(plan.currency) ?? 0) + n * price);
    }
    return {
      within,
      count,
      amounts: [...byCurrency]
        .map(([currency, amountMinor]) => ({ currency, amountMinor }))
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
