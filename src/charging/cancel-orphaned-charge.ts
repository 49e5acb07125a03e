import { assertChargeTransition } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { recordEvents } from "../events/index.js";
import { lockCharges } from "./lock-charges.js";

/**
 * Rule: the card of a canceled subscription is never sent a new attempt. Canceling immediately
 * cancels the subscription's waiting charges (scheduled, retrying) but leaves one in `processing`
 * to its outcome; when that outcome moved no money (a retryable decline, or an unknown outcome
 * CheckStatus proved was never taken) the outcome's own transaction cancels the charge
 * (apply-outcome.ts, release-attempt.ts). This is the backstop for a waiting charge of a canceled
 * subscription found anyway (one left `retrying` before that rule existed, for instance): before
 * any new attempt it is canceled, exactly as the cancellation would have done, under the same
 * locks (subscription, then charge), so it cannot race the cancellation or another worker.
 *
 * Returns false when there is nothing to cancel (the subscription is not canceled, or the charge
 * moved on meanwhile).
 */
const WAITING = ["scheduled", "retrying"] as const;

export async function cancelOrphanedCharge(
  ctx: Pick<EngineContext, "db" | "clock">,
  chargeId: string,
): Promise<boolean> {
  const now = ctx.clock.now();
  return ctx.db.$client.begin(async (tx) => {
    const locked = (await lockCharges(tx, [chargeId])).get(chargeId);
    if (locked?.subscription.status !== "canceled") return false;
    const { status } = locked.charge;
    if (!(WAITING as readonly string[]).includes(status)) return false;
    assertChargeTransition(status, "canceled");
    await tx`update charges set status = 'canceled', next_attempt_at = null where id = ${chargeId}::uuid`;
    await recordEvents(tx, [
      {
        type: "charge.canceled",
        actor: "system",
        occurredAt: now,
        subscriptionId: locked.subscription.id,
        customerId: locked.subscription.customerId,
        chargeId,
        data: { reason: "subscription canceled", previous_status: status },
      },
    ]);
    return true;
  });
}
