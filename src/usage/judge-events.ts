import type { UsageEventInput } from "./event-input.js";
import type { LoadedSubscription, LoadedSubscriptions } from "./load-subscriptions.js";
import type { CachedMeter } from "./meter-cache.js";
import { judgeTimestamp } from "./window.js";

/**
 * Rule (pure): what becomes of each event of a request before the database has its say. An event
 * is refused, naming the field at fault, when its meter is unknown or archived, a unique_count
 * meter gets no distinct_value, its subscription is unknown, its customer has no single live
 * subscription, or its timestamp is outside the acceptance window (window.ts). An event whose
 * (subscription, id) came earlier in the same request is a duplicate. The rest are candidates: the
 * database accepts each unless its key was recorded before.
 */

export type UsageRefusalCode =
  | "unknown_meter"
  | "meter_archived"
  | "distinct_value_required"
  | "subscription_not_found"
  | "no_live_subscription"
  | "ambiguous_customer"
  | "subscription_not_live"
  | "no_open_period"
  | "timestamp_in_future"
  | "period_not_open"
  | "period_closed";

export type UsageVerdict =
  | { readonly status: "accepted" | "duplicate" }
  | {
      readonly status: "refused";
      readonly code: UsageRefusalCode;
      readonly reason: string;
      /** The event's field at fault. */
      readonly field: string;
    };

/** An event to store, with its position in the request. */
export interface CandidateEvent {
  readonly index: number;
  readonly subscriptionId: string;
  readonly meterId: string;
  readonly eventId: string;
  readonly quantity: number;
  readonly distinctValue: string | null;
  /** Epoch milliseconds. */
  readonly occurredAt: number;
}

export interface Judgement {
  /** One per event, in request order; candidates read "accepted" until the database says otherwise. */
  readonly verdicts: UsageVerdict[];
  readonly candidates: CandidateEvent[];
}

const refused = (code: UsageRefusalCode, field: string, reason: string): UsageVerdict => ({
  status: "refused",
  code,
  field,
  reason,
});

/** The subscription an event means, or why there is none. */
function subscriptionOf(
  event: UsageEventInput,
  subscriptions: LoadedSubscriptions,
): { subscription: LoadedSubscription } | { refusal: UsageVerdict } {
  if (event.subscription_id !== undefined) {
    const found = subscriptions.byId.get(event.subscription_id.toLowerCase());
    if (found) return { subscription: found };
    const reason = `no subscription with id ${event.subscription_id}`;
    return { refusal: refused("subscription_not_found", "subscription_id", reason) };
  }
  const customer = event.customer_id ?? "";
  const live = subscriptions.liveByCustomer.get(customer.toLowerCase()) ?? [];
  if (live.length === 1) return { subscription: live[0]! };
  if (live.length === 0) {
    const reason = `customer ${customer} has no live subscription (trialing, active or past_due)`;
    return { refusal: refused("no_live_subscription", "customer_id", reason) };
  }
  const ids = live.map((s) => s.id).join(", ");
  const reason = `customer ${customer} has ${live.length} live subscriptions (${ids}); send subscription_id instead`;
  return { refusal: refused("ambiguous_customer", "customer_id", reason) };
}

/** Why the meter takes no such event, if it does not. */
function meterRefusal(event: UsageEventInput, meter: CachedMeter): UsageVerdict | undefined {
  if (meter.archived) {
    return refused("meter_archived", "meter", `meter ${event.meter} is archived; it takes no new events`);
  }
  if (meter.aggregation === "unique_count" && event.distinct_value === undefined) {
    const reason = `meter ${event.meter} counts distinct values: send distinct_value`;
    return refused("distinct_value_required", "distinct_value", reason);
  }
  return undefined;
}

/** One event's candidate for storing, or its refusal. */
function judgeOne(
  event: UsageEventInput,
  index: number,
  meter: CachedMeter | undefined,
  subscriptions: LoadedSubscriptions,
  now: number,
  graceHours: number,
): CandidateEvent | UsageVerdict {
  if (!meter) return refused("unknown_meter", "meter", `no meter with code ${event.meter}`);
  const refusal = meterRefusal(event, meter);
  if (refusal) return refusal;
  const resolved = subscriptionOf(event, subscriptions);
  if ("refusal" in resolved) return resolved.refusal;
  const { subscription } = resolved;
  const at = event.timestamp === undefined ? now : Date.parse(event.timestamp);
  const verdict = judgeTimestamp(subscription, at, now, graceHours);
  if (!verdict.ok) {
    // The subscription's state is the subscription's field's fault; a window, the timestamp's.
    const bySubscription = verdict.code === "subscription_not_live" || verdict.code === "no_open_period";
    const named = event.subscription_id === undefined ? "customer_id" : "subscription_id";
    return refused(verdict.code, bySubscription ? named : "timestamp", verdict.reason);
  }
  return {
    index,
    subscriptionId: subscription.id,
    meterId: meter.id,
    eventId: event.id,
    quantity: event.quantity ?? 1,
    distinctValue: event.distinct_value ?? null,
    occurredAt: at,
  };
}

export function judgeEvents(
  events: readonly UsageEventInput[],
  meters: ReadonlyMap<string, CachedMeter>,
  subscriptions: LoadedSubscriptions,
  now: number,
  graceHours: number,
): Judgement {
  const verdicts: UsageVerdict[] = [];
  const candidates: CandidateEvent[] = [];
  const seen = new Set<string>();
  for (const [index, event] of events.entries()) {
    const judged = judgeOne(event, index, meters.get(event.meter), subscriptions, now, graceHours);
    if ("status" in judged) {
      verdicts.push(judged);
      continue;
    }
    const key = `${judged.subscriptionId}\u0000${judged.eventId}`;
    if (seen.has(key)) {
      verdicts.push({ status: "duplicate" });
      continue;
    }
    seen.add(key);
    candidates.push(judged);
    verdicts.push({ status: "accepted" });
  }
  return { verdicts, candidates };
}
