import type { EntitlementPolicy } from "../billing/index.js";
import { type Config, envSchema } from "../config/index.js";

/**
 * Rule: the grace policy of the entitlements this process computes where no engine context reaches
 * (events recorded deep in a transaction, changed-events.ts) is the last engine configuration an
 * entitlements service was given, else the environment's, which is where every engine process reads
 * its configuration from; so the webhook and the API agree on the grace.
 */

const fromEnvironment = envSchema
  .pick({ ENTITLEMENTS_PAST_DUE_GRACE_DAYS: true })
  .safeParse(
    Object.fromEntries(
      Object.entries(process.env).filter(([, value]) => value !== undefined && value !== ""),
    ),
  );

let current: EntitlementPolicy = {
  pastDueGraceDays: fromEnvironment.success ? fromEnvironment.data.ENTITLEMENTS_PAST_DUE_GRACE_DAYS : 7,
};

export function entitlementPolicy(): EntitlementPolicy {
  return current;
}

/** The policy of an engine configuration, which the process then uses everywhere. */
export function policyOf(config: Pick<Config, "ENTITLEMENTS_PAST_DUE_GRACE_DAYS">): EntitlementPolicy {
  if (current.pastDueGraceDays !== config.ENTITLEMENTS_PAST_DUE_GRACE_DAYS) {
    current = { pastDueGraceDays: config.ENTITLEMENTS_PAST_DUE_GRACE_DAYS };
  }
  return current;
}
