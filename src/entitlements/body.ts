import type { CustomerEntitlements } from "./load-entitlements.js";

/**
 * Rule: entitlements read the same in the API and in the `entitlements.changed` webhook: snake_case,
 * ISO 8601 UTC instants, a limit as a number or null (unlimited; always null for a switch).
 */
export interface EntitlementsBody {
  customer_id: string;
  entitlements: { feature: string; kind: "boolean" | "limit"; enabled: true; limit: number | null }[];
  subscriptions: string[];
  as_of: string;
  grace_ends_at: string | null;
}

export function entitlementsBody(value: CustomerEntitlements): EntitlementsBody {
  return {
    customer_id: value.customerId,
    entitlements: value.entitlements.map(({ feature, kind, limit }) => ({
      feature,
      kind,
      enabled: true,
      limit,
    })),
    subscriptions: [...value.subscriptions],
    as_of: value.asOf.toJSDate().toISOString(),
    grace_ends_at: value.graceEndsAt?.toJSDate().toISOString() ?? null,
  };
}
