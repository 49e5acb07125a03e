import { eq } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { z } from "zod";
import { IllegalTransitionError, isLive, periodContaining } from "../billing/index.js";
import { toInstant } from "../clock/index.js";
import type { EngineContext } from "../context/index.js";
import { plans, subscriptions } from "../db/schema/index.js";
import { recordEvent } from "../events/index.js";
import { lifecycleRequest, lockSubscription } from "./subscription-row.js";

/**
 * resumeSubscription undoes a pause or a pending cancellation. Rules:
 * - a live subscription (trialing, active, past_due) set to cancel at period end keeps going: the
 *   flag is cleared (event subscription.cancel_unscheduled) and nothing else changes, as its period
 *   and next billing never moved;
 * - a paused subscription becomes active again; only `paused` resumes that way (`unpaid → active` is
 *   a paid debt, not a resume); billing restarts at the next period boundary after now, computed
 *   from the billing anchor with the plan's interval in the subscription's zone (src/billing
 *   periods), so the anchor day is kept and the time already in the current period is not charged.
 *   The current period becomes the one containing now, ending at next_billing_at;
 * - resuming an active subscription with nothing pending changes nothing.
 */

export const resumeSubscriptionInput = lifecycleRequest;

export type ResumeSubscriptionInput = z.input<typeof resumeSubscriptionInput>;

export interface ResumeResult {
  subscriptionId: string;
  nextBillingAt: DateTime;
  unchanged: boolean;
}

export async function resumeSubscription(
  ctx: EngineContext,
  input: ResumeSubscriptionInput,
): Promise<ResumeResult> {
  const request = resumeSubscriptionInput.parse(input);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await lockSubscription(tx, request.subscriptionId);
    if (isLive(row.status) && row.cancelAtPeriodEnd && row.nextBillingAt) {
      await tx.update(subscriptions).set({ cancelAtPeriodEnd: false }).where(eq(subscriptions.id, row.id));
      await recordEvent(tx, {
        type: "subscription.cancel_unscheduled",
        actor: request.actor,
        occurredAt: now,
        subscriptionId: row.id,
        customerId: row.customerId,
        data: { status: row.status, reason: request.reason ?? null },
      });
      return { subscriptionId: row.id, nextBillingAt: toInstant(row.nextBillingAt), unchanged: false };
    }
    if (row.status === "active" && row.nextBillingAt) {
      return { subscriptionId: row.id, nextBillingAt: toInstant(row.nextBillingAt), unchanged: true };
    }
    if (row.status !== "paused" || !row.billingAnchor)
      throw new IllegalTransitionError("subscription", row.status, "active");
    const [plan] = await tx
      .select({ unit: plans.intervalUnit, count: plans.intervalCount })
      .from(plans)
      .where(eq(plans.id, row.planId));
    if (!plan) throw new Error(`plan ${row.planId} of subscription ${row.id} is missing`);
    const anchor = toInstant(row.billingAnchor);
    // Before the anchor there is no period yet: billing starts at the anchor itself.
    const period =
      now < anchor ? { start: now, end: anchor } : periodContaining(anchor, plan, now, row.timezone);
    await tx
      .update(subscriptions)
      .set({
        status: "active",
        pausedAt: null,
        currentPeriodStart: period.start.toJSDate(),
        currentPeriodEnd: period.end.toJSDate(),
        nextBillingAt: period.end.toJSDate(),
      })
      .where(eq(subscriptions.id, row.id));
    await recordEvent(tx, {
      type: "subscription.resumed",
      actor: request.actor,
      occurredAt: now,
      subscriptionId: row.id,
      customerId: row.customerId,
      data: { paused_at: row.pausedAt?.toISOString() ?? null, next_billing_at: period.end.toISO() },
    });
    return { subscriptionId: row.id, nextBillingAt: period.end, unchanged: false };
  });
}
