import { eq } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { z } from "zod";
import { assertTransition } from "../billing/index.js";
import { toInstant } from "../clock/index.js";
import type { EngineContext } from "../context/index.js";
import { subscriptions } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { lifecycleRequest, lockSubscription } from "./subscription-row.js";

/**
 * pauseSubscription: an active subscription stops billing. Rules (the state table's): only `active`
 * can be paused (not a trial, not a subscription with an open debt); a paused one has paused_at and
 * no next_billing_at, which takes it out of the scheduler's index, so no period is charged until it
 * resumes. A charge already created for a period that began before the pause is not touched.
 * Pausing a paused subscription changes nothing.
 */

export const pauseSubscriptionInput = lifecycleRequest;
export type PauseSubscriptionInput = z.input<typeof pauseSubscriptionInput>;

export interface PauseResult {
  subscriptionId: string;
  pausedAt: DateTime;
  unchanged: boolean;
}

export async function pauseSubscription(
  ctx: EngineContext,
  input: PauseSubscriptionInput,
): Promise<PauseResult> {
  const request = pauseSubscriptionInput.parse(input);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await lockSubscription(tx, request.subscriptionId);
    if (row.status === "paused" && row.pausedAt) {
      return { subscriptionId: row.id, pausedAt: toInstant(row.pausedAt), unchanged: true };
    }
    assertTransition(row.status, "paused");
    await tx
      .update(subscriptions)
      .set({ status: "paused", pausedAt: now.toJSDate(), nextBillingAt: null })
      .where(eq(subscriptions.id, row.id));
    await recordEvent(tx, {
      type: "subscription.paused",
      actor: request.actor,
      occurredAt: now,
      subscriptionId: row.id,
      customerId: row.customerId,
      data: {
        reason: request.reason ?? null,
        previous_next_billing_at: row.nextBillingAt?.toISOString() ?? null,
      },
    });
    return { subscriptionId: row.id, pausedAt: now, unchanged: false };
  });
}
