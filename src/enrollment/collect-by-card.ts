import type { EngineContext } from "../context/index.js";
import type { SqlTx } from "../db/index.js";
import { supersedeCheckouts } from "./supersede-checkouts.js";

/**
 * Rule: a subscription that has a card it can be charged with collects by card. Called, under the
 * subscription's lock, when a card is saved (enrolment, a new card) and when a merchant switches
 * the method: the subscription becomes charge_automatically, and each charge waiting for its
 * payment link goes back to the card path due now (scheduled before its first reminder, retrying
 * after), its reminders stopped and its open checkout superseded and watched, so a payment made
 * on that page later is still found (and refunded if the card paid the period first).
 * Returns the ids of the charges moved back.
 */
export async function collectByCard(
  ctx: Pick<EngineContext, "clock" | "config">,
  tx: SqlTx,
  subscriptionId: string,
): Promise<string[]> {
  const now = ctx.clock.now().toUTC().toISO();
  await tx`
    update subscriptions set collection_method = 'charge_automatically'
    where id = ${subscriptionId}::uuid and collection_method <> 'charge_automatically'`;
  const moved = await tx<{ id: string }[]>`
    update charges c set
      status = case when l.reminders_sent > 0 then 'retrying'::charge_status else 'scheduled'::charge_status end,
      next_attempt_at = ${now}::timestamptz, dispatched_at = null
    from payment_links l
    where c.subscription_id = ${subscriptionId}::uuid and c.status = 'awaiting_payment' and l.charge_id = c.id
    returning c.id`;
  const ids = moved.map((row) => row.id);
  if (ids.length === 0) return ids;
  await tx`update payment_links set next_reminder_at = null where charge_id = any(${ids}::uuid[])`;
  await supersedeCheckouts(ctx, tx, { chargeIds: ids }, "the subscription went back to its card");
  return ids;
}
