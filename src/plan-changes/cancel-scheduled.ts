import type { DateTime } from "luxon";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { recordEvents } from "../events/index.js";
import { PlanChangeError } from "./errors.js";
import { lockSubscriptionForChange } from "./load.js";

/** Cancels the subscription's scheduled plan change; the plan stays as it is. */
export const cancelScheduledInput = z.object({
  subscriptionId: z.uuid(),
  actor: z.string().trim().min(1).max(200),
});

export async function cancelScheduledPlanChange(
  ctx: EngineContext,
  input: z.input<typeof cancelScheduledInput>,
): Promise<{ planChangeId: string; canceledAt: DateTime }> {
  const request = cancelScheduledInput.parse(input);
  const now = ctx.clock.now();
  return ctx.db.$client.begin(async (tx) => {
    const subscription = await lockSubscriptionForChange(tx, request.subscriptionId);
    const [change] = await tx<{ id: string; to_plan_id: string }[]>`
      update plan_changes set status = 'canceled', canceled_at = ${now.toUTC().toISO()}
      where subscription_id = ${subscription.id} and status = 'scheduled'
      returning id, to_plan_id`;
    if (!change) {
      throw new PlanChangeError(
        "no_scheduled_change",
        `subscription ${subscription.id} has no scheduled plan change`,
      );
    }
    await recordEvents(tx, [
      {
        type: "subscription.plan_change_canceled",
        actor: request.actor,
        occurredAt: now,
        subscriptionId: subscription.id,
        customerId: subscription.customer_id,
        data: { plan_change_id: change.id, to_plan_id: change.to_plan_id },
      },
    ]);
    return { planChangeId: change.id, canceledAt: now };
  });
}
