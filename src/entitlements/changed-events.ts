import { DateTime } from "luxon";
import type { SqlRunner } from "../db/index.js";
import { EVENT_TYPES } from "../events/types.js";
import { entitlementsBody } from "./body.js";
import { dropEntitlements } from "./cache.js";
import { type CustomerEntitlements, loadEntitlements } from "./load-entitlements.js";
import { entitlementPolicy } from "./settings.js";

/**
 * Rule: an event saying that a subscription's standing or plan changed (TRIGGERS) may change what
 * its customer may use. For each customer whose subscription is on a plan with features (before or
 * after a plan change), one `entitlements.changed` event with the new entitlements is recorded in
 * the same transaction, right after the events that caused it; a subscription whose plan grants
 * nothing changes nobody's entitlements, so it makes no such event. One statement per batch of
 * events, none when no event of the batch is a trigger: a payment that changes no standing costs
 * nothing more. The customers' answers cached in this process are dropped (cache.ts).
 *
 * A past_due grace running out changes entitlements without any event: the webhook's
 * `grace_ends_at` says when, and the API reads the change.
 */

const TRIGGERS: ReadonlySet<string> = new Set([
  "subscription.activated", // started (trialing or active), or a free first period after the trial
  "subscription.state_changed", // back to active from past_due or unpaid, or a trial converted
  "subscription.past_due",
  "subscription.unpaid",
  "subscription.canceled",
  "subscription.paused",
  "subscription.resumed",
  "subscription.plan_changed",
  "subscription.imported",
]);

export function changesEntitlements(type: string): boolean {
  return TRIGGERS.has(type);
}

/** An event as src/events records it (its EventInput), restated so this module never imports it. */
export interface EventLike {
  type: string;
  actor: string;
  occurredAt: DateTime;
  subscriptionId?: string | null;
  customerId?: string | null;
  chargeId?: string | null;
  data?: Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The plan a plan change left, which may have granted what the new one does not. */
function previousPlan(event: EventLike): string | null {
  if (event.type !== "subscription.plan_changed") return null;
  const from = event.data?.from_plan_id;
  return typeof from === "string" && UUID.test(from) ? from : null;
}

/** A quantity change keeps the plan, and features do not depend on quantity. */
function keepsPlan(event: EventLike): boolean {
  return event.type === "subscription.plan_changed" && event.data?.from_plan_id === event.data?.to_plan_id;
}

export interface ChangeCause {
  readonly actor: string;
  readonly causedBy: readonly Record<string, unknown>[];
}

export function entitlementsChangedEvent(value: CustomerEntitlements, cause: ChangeCause): EventLike {
  return {
    type: EVENT_TYPES.entitlementsChanged,
    actor: cause.actor,
    occurredAt: value.asOf,
    customerId: value.customerId,
    data: { ...entitlementsBody(value), caused_by: [...cause.causedBy] },
  };
}

/** The `entitlements.changed` events that `events` cause; see the rule above. */
export async function entitlementChanges(sql: SqlRunner, events: readonly EventLike[]): Promise<EventLike[]> {
  const triggers = events.filter(
    (event) => TRIGGERS.has(event.type) && UUID.test(event.subscriptionId ?? "") && !keepsPlan(event),
  );
  if (triggers.length === 0) return [];
  const named = new Set(triggers.flatMap((event) => (event.customerId ? [event.customerId] : [])));
  dropEntitlements(named);
  // Events of one batch share the billing clock's now, mostly; the latest one decides.
  const now = DateTime.max(...triggers.map((event) => event.occurredAt)) ?? triggers[0]!.occurredAt;
  const target = sql`
    select s.customer_id
    from unnest(${triggers.map((e) => e.subscriptionId as string)}::text[]::uuid[],
                ${triggers.map(previousPlan)}::text[]::uuid[]) as t(subscription_id, from_plan_id)
    join subscriptions s on s.id = t.subscription_id
    where exists (select 1 from plan_features pf join features f on f.id = pf.feature_id
                  where f.archived_at is null and (pf.plan_id = s.plan_id or pf.plan_id = t.from_plan_id))`;
  const loaded = await loadEntitlements(sql, target, now, entitlementPolicy());
  if (loaded.size === 0) return [];
  dropEntitlements([...loaded.keys()].filter((id) => !named.has(id)));
  const causesOf = new Map<string, EventLike[]>();
  for (const event of triggers) {
    const customer = event.customerId ?? "";
    causesOf.set(customer, [...(causesOf.get(customer) ?? []), event]);
  }
  return [...loaded.values()].map((value) => {
    const causes = causesOf.get(value.customerId) ?? [];
    return entitlementsChangedEvent(value, {
      actor: causes[0]?.actor ?? "system",
      causedBy: causes.map((event) => ({ event: event.type, subscription_id: event.subscriptionId })),
    });
  });
}
