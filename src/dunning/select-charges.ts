import { and, asc, eq, lte, type SQL } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { Db } from "../db/index.js";
import { charges, subscriptions } from "../db/schema/index.js";

/**
 * The charges a dunning run works on: retrying charges whose retry is due (through the partial
 * index charges_due_idx), or every retrying charge when `all` is set, optionally of one subscription
 * or one customer. Oldest due first. A read only: the claim in processCharge decides who charges.
 */
export interface DunningSelection {
  readonly all?: boolean;
  readonly subscriptionId?: string;
  readonly customerId?: string;
}

export interface SelectedCharge {
  readonly chargeId: string;
  readonly subscriptionId: string;
  readonly customerId: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly attemptCount: number;
  /** ISO 8601 UTC. */
  readonly nextAttemptAt: string | null;
}

export async function selectDunningCharges(
  db: Db,
  selection: DunningSelection,
  now: DateTime,
): Promise<SelectedCharge[]> {
  const conditions: SQL[] = [eq(charges.status, "retrying")];
  if (!selection.all) conditions.push(lte(charges.nextAttemptAt, now.toJSDate()));
  if (selection.subscriptionId) conditions.push(eq(charges.subscriptionId, selection.subscriptionId));
  if (selection.customerId) conditions.push(eq(subscriptions.customerId, selection.customerId));
  const rows = await db
    .select({
      chargeId: charges.id,
      subscriptionId: charges.subscriptionId,
      customerId: subscriptions.customerId,
      amountMinor: charges.amountMinor,
      currency: charges.currency,
      attemptCount: charges.attemptCount,
      nextAttemptAt: charges.nextAttemptAt,
    })
    .from(charges)
    .innerJoin(subscriptions, eq(subscriptions.id, charges.subscriptionId))
    .where(and(...conditions))
    .orderBy(asc(charges.nextAttemptAt), asc(charges.id));
  return rows.map((row) => ({ ...row, nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null }));
}
