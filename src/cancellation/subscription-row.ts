import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../db/index.js";
import { subscriptions } from "../db/schema/index.js";

/**
 * What every lifecycle change of a subscription shares. Rule: a change reads the subscription
 * under a row lock (select … for update) inside the transaction that writes it and its event, so
 * two changes at once (a cancel and a renewal, two cancels) are applied one after the other, each
 * seeing the other's result.
 */

export type SubscriptionRow = typeof subscriptions.$inferSelect;

export class SubscriptionNotFoundError extends Error {
  override name = "SubscriptionNotFoundError";
  constructor(readonly subscriptionId: string) {
    super(`no subscription ${subscriptionId}`);
  }
}

export async function lockSubscription(tx: Db | Tx, subscriptionId: string): Promise<SubscriptionRow> {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId))
    .for("update");
  if (!row) throw new SubscriptionNotFoundError(subscriptionId);
  return row;
}

/** Fields of every lifecycle request: who asks ("api:<key id>", "cli", "system", …) and why. */
export const lifecycleRequest = z.object({
  subscriptionId: z.uuid(),
  actor: z.string().trim().min(1).max(200),
  reason: z.string().trim().min(1).max(500).optional(),
});
