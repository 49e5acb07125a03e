import type { SqlRunner } from "../db/index.js";
import { LIVE_STATUSES, type SubscriptionWindow } from "./window.js";

/**
 * Rule: one query per ingestion request reads everything the acceptance window needs about the
 * subscriptions a batch names, and the live subscriptions of the customers it names instead. The
 * previous period is the latest billed period before the current one (its charge), so a period
 * changed mid-way (a plan change re-anchoring it) still has the right start.
 */

export interface LoadedSubscription extends SubscriptionWindow {
  readonly id: string;
  readonly customerId: string;
}

export interface LoadedSubscriptions {
  readonly byId: ReadonlyMap<string, LoadedSubscription>;
  /** Each named customer's live subscriptions (trialing, active, past_due). */
  readonly liveByCustomer: ReadonlyMap<string, readonly LoadedSubscription[]>;
}

interface Row {
  id: string;
  customer_id: string;
  status: string;
  current_start: number | null;
  current_end: number | null;
  previous_start: number | null;
}

export async function loadSubscriptions(
  sql: SqlRunner,
  subscriptionIds: readonly string[],
  customerIds: readonly string[],
): Promise<LoadedSubscriptions> {
  const byId = new Map<string, LoadedSubscription>();
  const liveByCustomer = new Map<string, LoadedSubscription[]>();
  if (subscriptionIds.length === 0 && customerIds.length === 0) return { byId, liveByCustomer };
  const rows = await sql<Row[]>`
    select s.id, s.customer_id, s.status::text as status,
           (extract(epoch from s.current_period_start) * 1000)::float8 as current_start,
           (extract(epoch from s.current_period_end) * 1000)::float8 as current_end,
           (extract(epoch from (
             select max(c.period_start) from charges c
             where c.subscription_id = s.id and c.kind = 'period' and c.period_start < s.current_period_start
           )) * 1000)::float8 as previous_start
    from subscriptions s
    where s.id = any(${subscriptionIds}::uuid[])
       or (s.customer_id = any(${customerIds}::uuid[]) and s.status in ('trialing', 'active', 'past_due'))`;
  // Ids come back lower-case whatever case the client wrote them in.
  const wanted = new Set(subscriptionIds.map((id) => id.toLowerCase()));
  const customers = new Set(customerIds.map((id) => id.toLowerCase()));
  for (const row of rows) {
    const subscription: LoadedSubscription = {
      id: row.id,
      customerId: row.customer_id,
      status: row.status,
      currentStart: row.current_start,
      currentEnd: row.current_end,
      previousStart: row.previous_start,
    };
    if (wanted.has(row.id)) byId.set(row.id, subscription);
    if (customers.has(row.customer_id) && LIVE_STATUSES.includes(row.status)) {
      const live = liveByCustomer.get(row.customer_id) ?? [];
      live.push(subscription);
      liveByCustomer.set(row.customer_id, live);
    }
  }
  return { byId, liveByCustomer };
}
