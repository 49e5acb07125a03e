import type { DateTime } from "luxon";
import type { SubscriptionState } from "./subscription-states.js";

/**
 * What a customer may use now: the features of the plans of their subscriptions in good standing.
 * Pure; whoever loads the grants leaves archived features out. Rules:
 * - `trialing` and `active` subscriptions grant their plan's features;
 * - a `past_due` one keeps granting for the grace days, counted from its unpaid charge's first
 *   failure (a charge never attempted: from when it became due), and stops at that instant;
 * - a charge whose gateway outcome is not known yet (held for review, or an attempt in flight or
 *   unknown) never cuts its subscription off: the money may have moved, and cutting a customer off
 *   for a payment that went through is worse than a few more days of access;
 * - `paused`, `unpaid`, `canceled` and `pending_enrollment` grant nothing;
 * - over several subscriptions a switch is on when any grants it, and a limit is the largest one
 *   granted, null (unlimited) beating every number.
 */

export const FEATURE_KINDS = ["boolean", "limit"] as const;
export type FeatureKind = (typeof FEATURE_KINDS)[number];

/** A feature as a plan grants it; `limit` is null for a switch, and for an unlimited limit. */
export interface FeatureGrant {
  readonly feature: string;
  readonly kind: FeatureKind;
  readonly limit: number | null;
}

/** An open charge of a past_due subscription. */
export interface UnpaidCharge {
  /** The first failed attempt; null when none failed yet. */
  readonly firstFailedAt: DateTime | null;
  /** When the charge became due (its period's start). */
  readonly dueAt: DateTime;
  /** Held for review, or an attempt in flight or unknown: the gateway has not said yet. */
  readonly outcomeUnknown: boolean;
}

export interface SubscriptionGrants {
  readonly id: string;
  readonly status: SubscriptionState;
  readonly features: readonly FeatureGrant[];
  /** Its open charges; only a past_due subscription's are looked at. */
  readonly unpaidCharges: readonly UnpaidCharge[];
}

export interface EntitlementPolicy {
  readonly pastDueGraceDays: number;
}

/** Whether a subscription grants now, and until when (null: no end known now). */
export type Standing =
  | { readonly grants: false }
  | { readonly grants: true; readonly until: DateTime | null };

export interface Entitlement {
  readonly feature: string;
  readonly kind: FeatureKind;
  readonly enabled: true;
  readonly limit: number | null;
}

export interface Entitlements {
  /** Sorted by feature code. */
  readonly entitlements: readonly Entitlement[];
  /** The subscriptions whose standing grants their plan's features, in the order given. */
  readonly subscriptions: readonly string[];
  /** The earliest grace end among them: entitlements shrink then unless a payment comes first. */
  readonly graceEndsAt: DateTime | null;
}

export function graceEnd(charge: UnpaidCharge, policy: EntitlementPolicy): DateTime {
  return (charge.firstFailedAt ?? charge.dueAt).plus({ days: policy.pastDueGraceDays });
}

export function standing(
  subscription: SubscriptionGrants,
  now: DateTime,
  policy: EntitlementPolicy,
): Standing {
  switch (subscription.status) {
    case "trialing":
    case "active":
      return { grants: true, until: null };
    case "past_due": {
      // Charges with an unknown outcome are left out: they cut nobody off. With none left (or none
      // found), nothing known is owed past its grace.
      const ends = subscription.unpaidCharges
        .filter((charge) => !charge.outcomeUnknown)
        .map((charge) => graceEnd(charge, policy));
      const until = ends.reduce<DateTime | null>((min, end) => (min === null || end < min ? end : min), null);
      return until === null || now < until ? { grants: true, until } : { grants: false };
    }
    default:
      return { grants: false };
  }
}

function merged(held: Entitlement | undefined, grant: FeatureGrant): Entitlement {
  const limit = grant.kind === "boolean" ? null : grant.limit;
  if (!held) return { feature: grant.feature, kind: grant.kind, enabled: true, limit };
  if (held.kind === "boolean" || held.limit === null || limit === null) return { ...held, limit: null };
  return { ...held, limit: Math.max(held.limit, limit) };
}

export function entitlementsOf(
  subscriptions: readonly SubscriptionGrants[],
  now: DateTime,
  policy: EntitlementPolicy,
): Entitlements {
  const byFeature = new Map<string, Entitlement>();
  const granting: string[] = [];
  let graceEndsAt: DateTime | null = null;
  for (const subscription of subscriptions) {
    const verdict = standing(subscription, now, policy);
    if (!verdict.grants) continue;
    granting.push(subscription.id);
    if (verdict.until && (graceEndsAt === null || verdict.until < graceEndsAt)) graceEndsAt = verdict.until;
    for (const grant of subscription.features) {
      byFeature.set(grant.feature, merged(byFeature.get(grant.feature), grant));
    }
  }
  const entitlements = [...byFeature.values()].sort((a, b) =>
    a.feature < b.feature ? -1 : a.feature > b.feature ? 1 : 0,
  );
  return { entitlements, subscriptions: granting, graceEndsAt };
}
