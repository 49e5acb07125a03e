import { DateTime } from "luxon";
import type { Fragment } from "postgres";
import {
  type Entitlement,
  type EntitlementPolicy,
  entitlementsOf,
  type FeatureGrant,
  type SubscriptionGrants,
  type SubscriptionState,
  type UnpaidCharge,
} from "../billing/index.js";
import type { SqlRunner } from "../db/index.js";

/**
 * Rule: the entitlements of many customers are loaded in one statement whatever their number: each
 * customer's subscriptions that may grant (trialing, active, past_due) with their plan's features
 * that are not archived and, for past_due ones, their open charges (scheduled, processing, retrying,
 * awaiting_payment, needs_review: uncollectible ones ended collection, so they decide nothing), each
 * with whether the gateway's outcome is still unknown. billing/entitlements.ts decides from that.
 * The customers come from a `target` query yielding `customer_id`; one that does not exist is absent.
 */

export interface CustomerEntitlements {
  readonly customerId: string;
  readonly entitlements: readonly Entitlement[];
  readonly subscriptions: readonly string[];
  /** Billing clock: when this answer was computed. */
  readonly asOf: DateTime;
  /** The earliest end of a past_due grace that still grants: the answer changes then by itself. */
  readonly graceEndsAt: DateTime | null;
}

interface LoadedRow {
  customer_id: string;
  subscription_id: string | null;
  status: SubscriptionState | null;
  features: FeatureGrant[] | null;
  unpaid: { first_failed_at: string | null; due_at: string; unknown: boolean }[] | null;
}

const instant = (text: string) => DateTime.fromISO(text, { setZone: true }).toUTC();

export type CustomerTarget = Fragment;

/** The customers named by id. */
export function customersById(sql: SqlRunner, customerIds: readonly string[]): CustomerTarget {
  return sql`select c.id as customer_id from customers c where c.id = any(${[...customerIds]}::text[]::uuid[])`;
}

export async function loadEntitlements(
  sql: SqlRunner,
  target: CustomerTarget,
  now: DateTime,
  policy: EntitlementPolicy,
): Promise<Map<string, CustomerEntitlements>> {
  const rows = await sql<LoadedRow[]>`
    with target as (${target})
    select t.customer_id, s.id as subscription_id, s.status,
      (select coalesce(json_agg(json_build_object('feature', f.code, 'kind', f.kind, 'limit', pf.limit_value)
                                order by f.code), '[]'::json)
       from plan_features pf join features f on f.id = pf.feature_id
       where pf.plan_id = s.plan_id and f.archived_at is null) as features,
      case when s.status = 'past_due' then
        (select coalesce(json_agg(json_build_object(
                  'first_failed_at', c.first_failed_at,
                  'due_at', case when c.kind = 'period' then c.period_start else c.created_at end,
                  'unknown', c.status = 'needs_review' or exists (
                    select 1 from charge_attempts a
                    where a.charge_id = c.id and a.status in ('in_flight', 'unknown', 'needs_review')))),
                '[]'::json)
         from charges c
         where c.subscription_id = s.id
           and c.status in ('scheduled', 'processing', 'retrying', 'awaiting_payment', 'needs_review'))
      end as unpaid
    from (select distinct customer_id from target) t
    left join subscriptions s on s.customer_id = t.customer_id and s.status in ('trialing', 'active', 'past_due')
    order by t.customer_id, s.created_at, s.id`;

  const grouped = new Map<string, SubscriptionGrants[]>();
  for (const row of rows) {
    const list = grouped.get(row.customer_id) ?? [];
    grouped.set(row.customer_id, list);
    if (row.subscription_id === null || row.status === null) continue;
    const unpaidCharges = (row.unpaid ?? []).map(
      (charge): UnpaidCharge => ({
        firstFailedAt: charge.first_failed_at === null ? null : instant(charge.first_failed_at),
        dueAt: instant(charge.due_at),
        outcomeUnknown: charge.unknown,
      }),
    );
    list.push({ id: row.subscription_id, status: row.status, features: row.features ?? [], unpaidCharges });
  }
  const result = new Map<string, CustomerEntitlements>();
  for (const [customerId, subscriptions] of grouped) {
    const decided = entitlementsOf(subscriptions, now, policy);
    result.set(customerId, { customerId, ...decided, asOf: now });
  }
  return result;
}
