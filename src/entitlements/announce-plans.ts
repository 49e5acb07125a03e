import type { DateTime } from "luxon";
import type { EntitlementPolicy } from "../billing/index.js";
import type { SqlTx } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import { type ChangeCause, entitlementsChangedEvent } from "./changed-events.js";
import { customersById, loadEntitlements } from "./load-entitlements.js";

/**
 * Rule: when what plans grant changes (a feature set on or taken off a plan, a feature archived),
 * every customer with a subscription on them that may grant (trialing, active, past_due) gets an
 * `entitlements.changed` event with their new entitlements, in the transaction of the change. The
 * customers are read in one statement, then told FAN_OUT_BATCH at a time: one statement loads a
 * batch's entitlements and one recordEvents writes its events, so no statement grows with the plan.
 * Returns how many customers were told.
 */
export const FAN_OUT_BATCH = 500;

export async function announcePlanChange(
  tx: SqlTx,
  planIds: readonly string[],
  now: DateTime,
  policy: EntitlementPolicy,
  cause: ChangeCause,
): Promise<number> {
  if (planIds.length === 0) return 0;
  const rows = await tx<{ customer_id: string }[]>`
    select distinct customer_id from subscriptions
    where plan_id = any(${[...planIds]}::text[]::uuid[]) and status in ('trialing', 'active', 'past_due')
    order by customer_id`;
  const customerIds = rows.map((row) => row.customer_id);
  for (let start = 0; start < customerIds.length; start += FAN_OUT_BATCH) {
    const batch = customerIds.slice(start, start + FAN_OUT_BATCH);
    const loaded = await loadEntitlements(tx, customersById(tx, batch), now, policy);
    await recordEvents(
      tx,
      [...loaded.values()].map((value) => entitlementsChangedEvent(value, cause)),
    );
  }
  return customerIds.length;
}
