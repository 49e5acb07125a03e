import type { DateTime } from "luxon";
import { z } from "zod";
import {
  MAX_QUANTITY,
  type PeriodCost,
  PRORATION_BEHAVIORS,
  type ProrationBehavior,
  pricesForProration,
  quotePlanChange,
} from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInstant, pgInteger, type SqlRunner } from "../db/index.js";
import { EVENT_TYPES, recordEvents } from "../events/index.js";
import { enqueueChargeBatches } from "../queue/index.js";
import { applyChangeNow } from "./apply-now.js";
import { PlanChangeError } from "./errors.js";
import { atQuantity, lockSubscriptionForChange, plansById } from "./load.js";
import { refusePlanChange } from "./refusals.js";

/**
 * changePlan: moves a subscription to another plan, another quantity (seats) or both, now or at the
 * end of its period, in one
 * transaction under the subscription's row lock (refusals.ts says which changes are refused; the
 * price of a change comes from billing/proration.ts). Rules:
 * - a plan is weighed at a quantity: its period price follows its price model (load.ts atQuantity),
 *   so a change of seats prorates exactly as a change of plan; without a plan the subscription
 *   keeps its plan, without a quantity it keeps its quantity;
 * - a new request replaces a scheduled change (the old one is canceled in the same transaction);
 * - the unused part of the period is credited at what its charge cost (price less coupon, credit
 *   counted as paid; nothing when it was refunded), or at the old plan's price when the period had
 *   no charge of its own (imported, or billed before this engine); the new plan's part is debited
 *   under the same percentage coupon, so a coupon's share stays the customer's on both sides;
 * - `immediate_prorate` credits only time that was paid for: it is refused while a charge of the
 *   subscription is still open (being collected or held), and while the period has already ended
 *   but the scheduler has not billed the next one yet;
 * - a charge for the difference is collected at once (handed to the charge queue after commit; if
 *   that fails, the next tick hands it out); a difference in the customer's favour becomes credit.
 */
export const changePlanInput = z.object({
  subscriptionId: z.uuid(),
  planId: z.uuid().optional(),
  quantity: z.number().int().min(1).max(MAX_QUANTITY).optional(),
  proration: z.enum(PRORATION_BEHAVIORS).optional(),
  actor: z.string().trim().min(1).max(200),
  reason: z.string().trim().min(1).max(500).optional(),
});
export type ChangePlanInput = z.input<typeof changePlanInput>;

export interface ChangePlanResult {
  readonly subscriptionId: string;
  readonly planChangeId: string;
  readonly status: "applied" | "scheduled";
  readonly proration: ProrationBehavior;
  readonly fromPlanId: string;
  readonly toPlanId: string;
  readonly fromQuantity: number;
  readonly toQuantity: number;
  readonly effectiveAt: DateTime;
  readonly currency: string;
  readonly creditMinor: number;
  readonly debitMinor: number;
  /** The charge that collects the difference (paid at once when it came to zero), if any. */
  readonly chargeId: string | null;
  readonly chargeAmountMinor: number;
  /** The subscription's credit after the change. */
  readonly creditBalanceMinor: number;
  readonly replacedPlanChangeId: string | null;
}

export async function changePlan(ctx: EngineContext, input: ChangePlanInput): Promise<ChangePlanResult> {
  const request = changePlanInput.parse(input);
  const proration = request.proration ?? ctx.config.PRORATION_BEHAVIOR;
  const now = ctx.clock.now();
  const result = await ctx.db.$client.begin(async (tx) => {
    const subscription = await lockSubscriptionForChange(tx, request.subscriptionId);
    const toPlanId = request.planId ?? subscription.plan_id;
    const plans = await plansById(tx, [subscription.plan_id, toPlanId]);
    const from = atQuantity(plans.get(subscription.plan_id)!, subscription.quantity);
    const found = plans.get(toPlanId);
    const to = found && atQuantity(found, request.quantity ?? subscription.quantity);
    refusePlanChange(subscription, from, to, toPlanId);
    const trialing = subscription.status === "trialing";
    const period = currentPeriod(subscription, now);
    if (proration === "at_period_end" && subscription.cancel_at_period_end) {
      throw new PlanChangeError(
        "subscription_not_changeable",
        `subscription ${subscription.id} ends at its period's end; resume it before scheduling a plan change`,
      );
    }
    const prorating = proration === "immediate_prorate" && !trialing;
    if (prorating) await refuseOpenCharges(tx, subscription.id);
    const [replaced] = await tx<{ id: string }[]>`
      update plan_changes set status = 'canceled', canceled_at = ${now.toUTC().toISO()}
      where subscription_id = ${subscription.id} and status = 'scheduled' returning id`;
    // Only a proration weighs what the period cost.
    const cost = prorating ? await periodCost(tx, subscription.id, period.start) : null;
    const quote = quotePlanChange({
      behavior: proration,
      trialing,
      period,
      at: now,
      ...pricesForProration(from, to, cost),
      timezone: subscription.timezone,
    });
    const replacedPlanChangeId = replaced?.id ?? null;
    const shared = {
      fromPlanId: from.id,
      fromQuantity: from.quantity,
      toPlanId: to.id,
      toQuantity: to.quantity,
      currency: from.currency,
      replacedPlanChangeId,
    };
    if (quote.kind === "scheduled") {
      const [change] = await tx<{ id: string }[]>`
        insert into plan_changes (subscription_id, from_plan_id, to_plan_id, from_quantity, to_quantity, proration,
                                  status, effective_at, currency, actor, reason)
        values (${subscription.id}, ${from.id}, ${to.id}, ${from.quantity}, ${to.quantity}, ${proration},
                'scheduled', ${quote.effectiveAt.toISO()}, ${from.currency}, ${request.actor}, ${request.reason ?? null})
        returning id`;
      await recordEvents(tx, [
        {
          type: EVENT_TYPES.subscriptionPlanChangeScheduled,
          actor: request.actor,
          occurredAt: now,
          subscriptionId: subscription.id,
          customerId: subscription.customer_id,
          data: {
            plan_change_id: change!.id,
            from_plan_id: from.id,
            to_plan_id: to.id,
            from_quantity: from.quantity,
            to_quantity: to.quantity,
            effective_at: quote.effectiveAt.toISO(),
            replaced_plan_change_id: replacedPlanChangeId,
          },
        },
      ]);
      return {
        planChangeId: change!.id,
        status: "scheduled" as const,
        effectiveAt: quote.effectiveAt,
        creditMinor: 0,
        debitMinor: 0,
        chargeId: null,
        chargeAmountMinor: 0,
        collect: false,
        creditBalanceMinor: pgInteger(subscription.credit_minor),
        ...shared,
      };
    }
    const applied = await applyChangeNow({
      tx,
      subscription,
      from,
      to,
      proration,
      now,
      period,
      quote,
      actor: request.actor,
      reason: request.reason,
      replacedPlanChangeId,
    });
    return { ...applied, status: "applied" as const, ...shared };
  });
  if (result.collect && result.chargeId) {
    await enqueueChargeBatches(ctx.queues, [[result.chargeId]]).catch((err: unknown) =>
      ctx.logger.warn(
        { err, chargeId: result.chargeId },
        "could not enqueue the plan change's charge; the next tick hands it out",
      ),
    );
  }
  ctx.logger.info(
    {
      subscriptionId: request.subscriptionId,
      planId: result.toPlanId,
      quantity: result.toQuantity,
      proration,
      status: result.status,
    },
    "plan change",
  );
  const { collect: _collect, ...rest } = result;
  return { ...rest, subscriptionId: request.subscriptionId, proration };
}

/** The current period; a trial with no period yet runs from now to its end. */
function currentPeriod(
  subscription: {
    current_period_start: string | null;
    current_period_end: string | null;
    next_billing_at: string | null;
    id: string;
  },
  now: DateTime,
) {
  const end = subscription.current_period_end ?? subscription.next_billing_at;
  const start = subscription.current_period_start ? pgInstant(subscription.current_period_start) : now;
  if (end === null || pgInstant(end) <= now) {
    throw new PlanChangeError(
      "period_not_settled",
      `subscription ${subscription.id} is due for billing; change its plan once the next period is billed`,
    );
  }
  return { start, end: pgInstant(end) };
}

async function periodCost(
  tx: SqlRunner,
  subscriptionId: string,
  periodStart: DateTime,
): Promise<PeriodCost | null> {
  // A period whose payment was given back (a refund asked for, not a duplicate's) was not paid for.
  const [charge] = await tx<{ paid: string; discount_percent: number | null }[]>`
    select case when exists (select 1 from refunds r where r.charge_id = c.id and r.reason = 'requested'
                                                     and r.status <> 'failed')
                then 0 else c.amount_minor + c.credit_minor end as paid,
           c.discount_percent
    from charges c
    where c.subscription_id = ${subscriptionId} and c.kind = 'period' and c.status = 'paid'
      and c.period_start = ${periodStart.toUTC().toISO()}::timestamptz`;
  return charge ? { paid: pgInteger(charge.paid), discountPercent: charge.discount_percent } : null;
}

async function refuseOpenCharges(tx: SqlRunner, subscriptionId: string) {
  const [open] = await tx<{ id: string; status: string }[]>`
    select id, status from charges
    where subscription_id = ${subscriptionId} and status in ('scheduled', 'retrying', 'processing', 'needs_review')
    limit 1`;
  if (open) {
    throw new PlanChangeError(
      "period_not_settled",
      `charge ${open.id} of subscription ${subscriptionId} is ${open.status}; prorate once it is settled, or change at_period_end`,
      { charge_id: open.id, charge_status: open.status },
    );
  }
}
