import { and, asc, eq, gt, inArray, isNotNull, lte } from "drizzle-orm";
import type { DateTime } from "luxon";
import type { EngineContext } from "../app/index.js";
import { assertTransition } from "../billing/index.js";
import { toInstant } from "../clock/index.js";
import type { Tx } from "../db/index.js";
import { charges, plans, subscriptions } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../events/index.js";
import { enqueueTokenDeactivation } from "../queue/index.js";
import { inBatches } from "./batches.js";
import { type BillingStep, planBilling } from "./billing-plan.js";

/**
 * Rule: one charge per subscription and period. Due subscriptions (trialing or active, with
 * next_billing_at reached: the partial index subscriptions_due_idx) are claimed FOR UPDATE SKIP
 * LOCKED, so concurrent ticks split them; each period's charge is inserted with ON CONFLICT
 * (subscription_id, period_start) DO NOTHING, so a tick that runs twice, or two at once, can never
 * bill a period twice; the subscription's current period and next_billing_at move in the same
 * transaction. The charge is scheduled and due at once (next_attempt_at = now); the charge worker
 * collects it.
 *
 * past_due subscriptions are not renewed (see isBilling): one open debt per subscription. A
 * subscription with cancel_at_period_end is canceled at its period end instead, and its card token
 * is handed to the token-deactivation queue once the transaction has committed.
 */
export interface BillingCounts {
  chargesCreated: number;
  subscriptionsCanceled: number;
}

type DueRow = Awaited<ReturnType<typeof selectDue>>[number];

const ACTOR = "scheduler";

function selectDue(tx: Tx, now: Date, after: string | undefined, limit: number) {
  return tx
    .select({
      id: subscriptions.id,
      customerId: subscriptions.customerId,
      status: subscriptions.status,
      timezone: subscriptions.timezone,
      billingAnchor: subscriptions.billingAnchor,
      nextBillingAt: subscriptions.nextBillingAt,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      paymentMethodId: subscriptions.paymentMethodId,
      amountMinor: plans.amountMinor,
      currency: plans.currency,
      intervalUnit: plans.intervalUnit,
      intervalCount: plans.intervalCount,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(
      and(
        inArray(subscriptions.status, ["trialing", "active"]),
        isNotNull(subscriptions.nextBillingAt),
        lte(subscriptions.nextBillingAt, now),
        after === undefined ? undefined : gt(subscriptions.id, after),
      ),
    )
    .orderBy(asc(subscriptions.id))
    .limit(limit)
    .for("update", { of: subscriptions, skipLocked: true });
}

/** The step for one row, or null (logged) when its billing data cannot be planned. */
function stepFor(
  ctx: Pick<EngineContext, "logger">,
  row: DueRow,
  now: DateTime,
  maxPeriods: number,
): BillingStep | null {
  if (!row.billingAnchor || !row.nextBillingAt) return null;
  try {
    return planBilling(
      {
        billingAnchor: toInstant(row.billingAnchor),
        timezone: row.timezone,
        interval: { unit: row.intervalUnit, count: row.intervalCount },
        nextBillingAt: toInstant(row.nextBillingAt),
        cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      },
      now,
      maxPeriods,
    );
  } catch (err) {
    // One corrupt row must not stop billing for everyone else.
    ctx.logger.error({ err, subscriptionId: row.id }, "cannot plan billing for this subscription; skipped");
    return null;
  }
}

async function cancelAtPeriodEnd(tx: Tx, row: DueRow, at: DateTime, now: DateTime): Promise<void> {
  assertTransition(row.status, "canceled");
  await tx
    .update(subscriptions)
    .set({
      status: "canceled",
      canceledAt: at.toJSDate(),
      nextBillingAt: null,
      endedReason: "cancel_at_period_end",
    })
    .where(eq(subscriptions.id, row.id));
  await recordEvent(tx, {
    type: EVENT_TYPES.subscriptionCanceled,
    actor: ACTOR,
    occurredAt: now,
    subscriptionId: row.id,
    customerId: row.customerId,
    data: { reason: "cancel_at_period_end", canceled_at: at.toISO() },
  });
}

async function bill(tx: Tx, row: DueRow, step: Extract<BillingStep, { kind: "bill" }>, now: DateTime) {
  let created = 0;
  for (const period of step.periods) {
    const [charge] = await tx
      .insert(charges)
      .values({
        subscriptionId: row.id,
        periodStart: period.start.toJSDate(),
        periodEnd: period.end.toJSDate(),
        amountMinor: row.amountMinor,
        currency: row.currency,
        status: "scheduled",
        nextAttemptAt: now.toJSDate(),
      })
      .onConflictDoNothing({ target: [charges.subscriptionId, charges.periodStart] })
      .returning({ id: charges.id });
    if (!charge) continue; // already billed: the unique key says so
    created += 1;
    await recordEvent(tx, {
      type: "charge.created",
      actor: ACTOR,
      occurredAt: now,
      subscriptionId: row.id,
      customerId: row.customerId,
      chargeId: charge.id,
      data: {
        period_index: period.index,
        period_start: period.start.toISO(),
        period_end: period.end.toISO(),
        amount_minor: row.amountMinor,
        currency: row.currency,
      },
    });
  }
  const current = step.periods.at(-1)!;
  await tx
    .update(subscriptions)
    .set({
      currentPeriodStart: current.start.toJSDate(),
      currentPeriodEnd: current.end.toJSDate(),
      nextBillingAt: step.nextBillingAt.toJSDate(),
    })
    .where(eq(subscriptions.id, row.id));
  return created;
}

export async function billDueSubscriptions(
  ctx: Pick<EngineContext, "db" | "queues" | "logger">,
  options: { now: DateTime; batchSize: number; maxPeriodsPerSubscription: number },
): Promise<BillingCounts> {
  const { now, batchSize } = options;
  const counts: BillingCounts = { chargesCreated: 0, subscriptionsCanceled: 0 };
  const toDeactivate: string[] = [];
  await inBatches<string>(batchSize, async (after) => {
    const rows = await ctx.db.transaction(async (tx) => {
      const due = await selectDue(tx, now.toJSDate(), after, batchSize);
      for (const row of due) {
        const step = stepFor(ctx, row, now, options.maxPeriodsPerSubscription);
        if (step?.kind === "cancel") {
          await cancelAtPeriodEnd(tx, row, step.at, now);
          counts.subscriptionsCanceled += 1;
          if (row.paymentMethodId) toDeactivate.push(row.paymentMethodId);
        } else if (step?.kind === "bill") {
          counts.chargesCreated += await bill(tx, row, step, now);
        }
      }
      return due;
    });
    return { rows: rows.length, cursor: rows.at(-1)?.id };
  });
  for (const paymentMethodId of toDeactivate) {
    await enqueueTokenDeactivation(ctx.queues, { paymentMethodId }).catch((err: unknown) =>
      ctx.logger.error({ err, paymentMethodId }, "could not enqueue the token deactivation"),
    );
  }
  return counts;
}
