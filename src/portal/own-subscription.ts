import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { type AccountSubscription, accountSubscriptions } from "./customer-account.js";

/**
 * Rule: every portal action names a subscription in its form, and acts only when that subscription
 * belongs to the session's customer; any other id (or anything that is not an id) is answered as if
 * it did not exist.
 */
export type OwnSubscription = AccountSubscription;

const subscriptionId = z.uuid();

/** The customer's subscription with this id, or null when it is not theirs (or not a subscription). */
export async function ownSubscription(
  ctx: Pick<EngineContext, "db">,
  customerId: string,
  id: string,
): Promise<OwnSubscription | null> {
  if (!subscriptionId.safeParse(id).success) return null;
  const [row] = await accountSubscriptions(ctx, customerId, id);
  return row ?? null;
}
