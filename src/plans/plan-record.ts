import { type Plan, priceModelOf } from "../billing/index.js";
import type { plans } from "../db/schema/index.js";

/**
 * A stored plan: the domain plan plus its bookkeeping columns. Its price is read back from the
 * price columns with priceModelOf; a row with malformed tiers throws rather than price anything.
 */
export interface StoredPlan extends Plan {
  readonly createdAt: Date;
  /** Set once the plan takes no new subscriptions; existing ones keep billing on it. */
  readonly archivedAt: Date | null;
  /** Progressive billing: usage not yet billed in an open period is charged once it reaches this. */
  readonly usageThresholdMinor: number | null;
}

export function toStoredPlan(row: typeof plans.$inferSelect): StoredPlan {
  return {
    id: row.id,
    name: row.name,
    amount: { minor: row.amountMinor, currency: row.currency },
    price: priceModelOf(row),
    intervalUnit: row.intervalUnit,
    intervalCount: row.intervalCount,
    trialDays: row.trialDays,
    productId: row.productId,
    billingMode: row.billingMode,
    collectionMethod: row.collectionMethod,
    trialWithoutCard: row.trialWithoutCard,
    createdAt: row.createdAt,
    archivedAt: row.archivedAt,
    usageThresholdMinor: row.usageThresholdMinor,
  };
}
