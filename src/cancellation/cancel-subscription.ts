import { and, eq, inArray, isNotNull, isNull, ne, notInArray, or } from "drizzle-orm";
import type { DateTime } from "luxon";
import { z } from "zod";
import {
  assertTransition,
  type CancellationMode,
  cancellationEffectiveAt,
  isLive,
  type SubscriptionState,
} from "../billing/index.js";
import { toInstant } from "../clock/index.js";
import type { EngineContext } from "../context/index.js";
import type { Db, Tx } from "../db/index.js";
import { charges, paymentMethods, subscriptions } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../events/index.js";
import { enqueueTokenDeactivation } from "../queue/index.js";
import { lifecycleRequest, lockSubscription, type SubscriptionRow } from "./subscription-row.js";

/**
 * cancelSubscription. Rules:
 * - immediately: the subscription becomes canceled now (canceled_at, next_billing_at cleared, so the
 *   scheduler never bills it again); its open charges (scheduled, retrying) are canceled in the same
 *   transaction. A charge being processed is left alone: an attempt is in flight and its outcome must
 *   be settled first. Uncollectible and needs_review charges stay: canceling does not forgive a debt;
 * - at_period_end: only cancel_at_period_end is set; the customer keeps the period paid for, and the
 *   scheduler cancels the subscription at next_billing_at (and stops the card then). A subscription
 *   with no period running to its next billing (pending enrollment, paused, unpaid, or one already
 *   due) is canceled immediately, as cancellationEffectiveAt says;
 * - after commit, StopRecurring is queued for every card of the subscription that is not deactivated
 *   and that no other live subscription charges. Postgres keeps the intent (a canceled subscription
 *   with live cards), so canceling again is a safe retry: it changes nothing and re-queues the stops.
 */

export const cancelSubscriptionInput = lifecycleRequest.extend({
  mode: z.enum(["immediately", "at_period_end"] as const satisfies readonly CancellationMode[]),
});

export type CancelSubscriptionInput = z.input<typeof cancelSubscriptionInput>;

export interface CancelResult {
  subscriptionId: string;
  status: SubscriptionState;
  cancelAtPeriodEnd: boolean;
  /** When the subscription ends (or ended). */
  effectiveAt: DateTime;
  /** True when nothing changed because it was already canceled or already set to cancel. */
  unchanged: boolean;
  canceledChargeIds: string[];
  /** Payment methods whose StopRecurring was queued by this call. */
  tokenDeactivations: string[];
}

function scheduledEnd(row: SubscriptionRow, now: DateTime): DateTime | undefined {
  // The scheduler carries out a scheduled cancellation at next_billing_at, the end of the current
  // period of a live subscription, so that is when it takes effect.
  if (!isLive(row.status) || row.nextBillingAt === null) return undefined;
  const end = cancellationEffectiveAt("at_period_end", now, toInstant(row.nextBillingAt));
  return end > now ? end : undefined;
}

export async function cancelSubscription(
  ctx: EngineContext,
  input: CancelSubscriptionInput,
): Promise<CancelResult> {
  const request = cancelSubscriptionInput.parse(input);
  const now = ctx.clock.now();
  const result = await ctx.db.transaction(async (tx): Promise<Omit<CancelResult, "tokenDeactivations">> => {
    const row = await lockSubscription(tx, request.subscriptionId);
    const unchanged = { subscriptionId: row.id, status: row.status, unchanged: true, canceledChargeIds: [] };
    if (row.status === "canceled") {
      return {
        ...unchanged,
        cancelAtPeriodEnd: row.cancelAtPeriodEnd,
        effectiveAt: toInstant(row.canceledAt ?? now),
      };
    }
    const effectiveAt = request.mode === "at_period_end" ? scheduledEnd(row, now) : undefined;
    if (effectiveAt) {
      if (row.cancelAtPeriodEnd) return { ...unchanged, cancelAtPeriodEnd: true, effectiveAt };
      await scheduleCancellation(tx, row, request, now, effectiveAt);
      return { ...unchanged, unchanged: false, cancelAtPeriodEnd: true, effectiveAt };
    }
    const canceledChargeIds = await cancelNow(tx, row, request, now);
    return {
      subscriptionId: row.id,
      status: "canceled",
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      effectiveAt: now,
      unchanged: false,
      canceledChargeIds,
    };
  });
  const tokenDeactivations =
    result.status === "canceled" ? await queueTokenStops(ctx, result.subscriptionId) : [];
  ctx.logger.info(
    {
      subscriptionId: result.subscriptionId,
      mode: request.mode,
      status: result.status,
      unchanged: result.unchanged,
    },
    "subscription cancellation",
  );
  return { ...result, tokenDeactivations };
}

type Request = z.output<typeof cancelSubscriptionInput>;

async function scheduleCancellation(
  tx: Tx,
  row: SubscriptionRow,
  request: Request,
  now: DateTime,
  effectiveAt: DateTime,
): Promise<void> {
  await tx.update(subscriptions).set({ cancelAtPeriodEnd: true }).where(eq(subscriptions.id, row.id));
  await recordEvent(tx, {
    type: "subscription.cancel_scheduled",
    actor: request.actor,
    occurredAt: now,
    subscriptionId: row.id,
    customerId: row.customerId,
    data: { mode: request.mode, effective_at: effectiveAt.toISO(), reason: request.reason ?? null },
  });
}

async function cancelNow(tx: Tx, row: SubscriptionRow, request: Request, now: DateTime): Promise<string[]> {
  assertTransition(row.status, "canceled");
  await tx
    .update(subscriptions)
    .set({
      status: "canceled",
      canceledAt: now.toJSDate(),
      nextBillingAt: null,
      endedReason: request.reason ?? `canceled by ${request.actor}`,
    })
    .where(eq(subscriptions.id, row.id));
  const canceled = await tx
    .update(charges)
    .set({ status: "canceled", nextAttemptAt: null })
    .where(
      and(
        eq(charges.subscriptionId, row.id),
        inArray(charges.status, ["scheduled", "retrying", "awaiting_payment"]),
      ),
    )
    .returning({ id: charges.id, status: charges.status });
  const subjects = {
    actor: request.actor,
    occurredAt: now,
    subscriptionId: row.id,
    customerId: row.customerId,
  };
  for (const charge of canceled) {
    await recordEvent(tx, {
      ...subjects,
      type: "charge.canceled",
      chargeId: charge.id,
      data: { reason: "subscription canceled" },
    });
  }
  await recordEvent(tx, {
    ...subjects,
    type: EVENT_TYPES.subscriptionCanceled,
    data: {
      mode: request.mode,
      previous_status: row.status,
      reason: request.reason ?? null,
      canceled_charge_ids: canceled.map((charge) => charge.id),
    },
  });
  return canceled.map((charge) => charge.id);
}

/**
 * Cards of the subscription that are still live and that no other subscription that is not canceled
 * uses as its current card (stopping a token ends it for every subscription).
 */
async function cardsToStop(db: Db, subscriptionId: string): Promise<string[]> {
  const current = db
    .select({ id: subscriptions.paymentMethodId })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  const usedElsewhere = db
    .select({ id: subscriptions.paymentMethodId })
    .from(subscriptions)
    .where(
      and(
        ne(subscriptions.id, subscriptionId),
        ne(subscriptions.status, "canceled"),
        isNotNull(subscriptions.paymentMethodId),
      ),
    );
  const rows = await db
    .select({ id: paymentMethods.id })
    .from(paymentMethods)
    .where(
      and(
        isNull(paymentMethods.deactivatedAt),
        or(eq(paymentMethods.subscriptionId, subscriptionId), inArray(paymentMethods.id, current)),
        notInArray(paymentMethods.id, usedElsewhere),
      ),
    );
  return rows.map((row) => row.id);
}

async function queueTokenStops(ctx: EngineContext, subscriptionId: string): Promise<string[]> {
  const ids = await cardsToStop(ctx.db, subscriptionId);
  for (const paymentMethodId of ids) await enqueueTokenDeactivation(ctx.queues, { paymentMethodId });
  return ids;
}
