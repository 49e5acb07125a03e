import type { DateTime } from "luxon";
import type { PlanChangeQuote, ProrationBehavior } from "../billing/index.js";
import { pgInteger, type SqlTx } from "../db/index.js";
import { EVENT_TYPES, type EventInput, recordEvents } from "../events/index.js";
import { createdChargeEvents, liveDiscounts, pricePeriods, recordDiscountUse } from "../pricing/index.js";
import type { LockedSubscription, PlanFacts } from "./load.js";

/**
 * Writes a plan change that takes effect now. Rules:
 * - same interval: debit − credit is due at once, less the subscription's credit; a negative
 *   difference is added to the credit, which the next charges use up (scheduler);
 * - re-anchored (new interval): the new plan's first period starts now and is charged as a whole
 *   period would be: the live coupon applies, then the credit (the old period's unused part plus any
 *   credit held); billing goes on from that period's end;
 * - the charge is of kind plan_change (its own row, tied to the change), due at once; at zero it is
 *   recorded paid without the gateway.
 */
export interface ApplyNowArgs {
  readonly tx: SqlTx;
  readonly subscription: LockedSubscription;
  readonly from: PlanFacts;
  readonly to: PlanFacts;
  readonly proration: ProrationBehavior;
  readonly now: DateTime;
  readonly period: { readonly start: DateTime; readonly end: DateTime };
  readonly quote: Extract<PlanChangeQuote, { kind: "now" }>;
  readonly actor: string;
  readonly reason: string | undefined;
  readonly replacedPlanChangeId: string | null;
}

interface ChangeCharge {
  amountMinor: number;
  discountMinor: number;
  discountPercent: number | null;
  couponId: string | null;
  creditMinor: number;
  start: DateTime;
  end: DateTime;
}

export interface AppliedChange {
  planChangeId: string;
  effectiveAt: DateTime;
  creditMinor: number;
  debitMinor: number;
  chargeId: string | null;
  chargeAmountMinor: number;
  /** The charge must be handed to the charge queue (it is not zero). */
  collect: boolean;
  creditBalanceMinor: number;
}

export async function applyChangeNow(args: ApplyNowArgs): Promise<AppliedChange> {
  const { tx, subscription, from, to, quote, now } = args;
  const balance = pgInteger(subscription.credit_minor);
  const reanchored = quote.reanchored;
  let charge: ChangeCharge | null = null;
  let creditLeft: number;
  if (reanchored) {
    const discount = (await liveDiscounts(tx, [subscription.id])).get(subscription.id) ?? null;
    const priced = pricePeriods(quote.debitMinor, 1, discount, balance + quote.creditMinor);
    const first = priced.charges[0]!;
    charge = {
      amountMinor: first.amountMinor,
      discountMinor: first.discountMinor,
      discountPercent: first.discountPercent,
      couponId: first.discountApplied ? (discount?.couponId ?? null) : null,
      creditMinor: first.creditAppliedMinor,
      start: reanchored.start,
      end: reanchored.end,
    };
    creditLeft = priced.creditLeftMinor;
    await recordDiscountUse(tx, priced.discountUse ? [priced.discountUse] : [], now);
  } else {
    const due = Math.max(quote.netMinor, 0);
    const pool = balance + Math.max(-quote.netMinor, 0);
    const applied = Math.min(pool, due);
    creditLeft = pool - applied;
    if (due > 0) {
      charge = {
        amountMinor: due - applied,
        discountMinor: 0,
        discountPercent: null,
        couponId: null,
        creditMinor: applied,
        start: quote.effectiveAt,
        end: args.period.end,
      };
    }
  }
  const nowIso = now.toUTC().toISO();
  const [change] = await tx<{ id: string }[]>`
    insert into plan_changes (subscription_id, from_plan_id, to_plan_id, from_quantity, to_quantity, proration, status,
                              effective_at, currency, credit_minor, debit_minor, actor, reason, applied_at)
    values (${subscription.id}, ${from.id}, ${to.id}, ${from.quantity}, ${to.quantity}, ${args.proration}, 'applied',
            ${quote.effectiveAt.toISO()},
            ${from.currency}, ${quote.creditMinor}, ${quote.debitMinor}, ${args.actor}, ${args.reason ?? null}, ${nowIso})
    returning id`;
  const planChangeId = change!.id;
  const chargeId = charge
    ? await insertChangeCharge(tx, subscription.id, planChangeId, to, charge, now)
    : null;
  await tx`
    update subscriptions set plan_id = ${to.id}, quantity = ${to.quantity}, credit_minor = ${creditLeft},
      billing_anchor = coalesce(${reanchored?.start.toISO() ?? null}::timestamptz, billing_anchor),
      current_period_start = coalesce(${reanchored?.start.toISO() ?? null}::timestamptz, current_period_start),
      current_period_end = coalesce(${reanchored?.end.toISO() ?? null}::timestamptz, current_period_end),
      next_billing_at = coalesce(${reanchored?.end.toISO() ?? null}::timestamptz, next_billing_at)
    where id = ${subscription.id}`;
  const subjects = {
    actor: args.actor,
    occurredAt: now,
    subscriptionId: subscription.id,
    customerId: subscription.customer_id,
  };
  const events: EventInput[] = [];
  if (charge && chargeId) {
    events.push(
      ...createdChargeEvents(
        { ...subjects, chargeId },
        {
          kind: "plan_change",
          plan_change_id: planChangeId,
          period_start: charge.start.toISO(),
          period_end: charge.end.toISO(),
          amount_minor: charge.amountMinor,
          currency: from.currency,
          quantity: to.quantity,
          discount_minor: charge.discountMinor,
          credit_minor: charge.creditMinor,
        },
      ),
    );
  }
  events.push({
    ...subjects,
    type: EVENT_TYPES.subscriptionPlanChanged,
    data: {
      plan_change_id: planChangeId,
      from_plan_id: from.id,
      to_plan_id: to.id,
      from_quantity: from.quantity,
      to_quantity: to.quantity,
      proration: args.proration,
      currency: from.currency,
      credit_minor: quote.creditMinor,
      debit_minor: quote.debitMinor,
      charge_id: chargeId,
      charge_amount_minor: charge?.amountMinor ?? 0,
      credit_balance_minor: creditLeft,
      reanchored_period: reanchored ? { start: reanchored.start.toISO(), end: reanchored.end.toISO() } : null,
      replaced_plan_change_id: args.replacedPlanChangeId,
    },
  });
  await recordEvents(tx, events);
  return {
    planChangeId,
    effectiveAt: quote.effectiveAt,
    creditMinor: quote.creditMinor,
    debitMinor: quote.debitMinor,
    chargeId,
    chargeAmountMinor: charge?.amountMinor ?? 0,
    collect: charge !== null && charge.amountMinor > 0,
    creditBalanceMinor: creditLeft,
  };
}

/** The change's own charge: due now and recorded as handed out (the caller enqueues it), or paid at zero. */
async function insertChangeCharge(
  tx: SqlTx,
  subscriptionId: string,
  planChangeId: string,
  plan: PlanFacts,
  charge: ChangeCharge,
  now: DateTime,
): Promise<string> {
  const free = charge.amountMinor === 0;
  const nowIso = now.toUTC().toISO();
  const [row] = await tx<{ id: string }[]>`
    insert into charges (subscription_id, plan_id, quantity, kind, plan_change_id, period_start, period_end, amount_minor, currency,
                         status, next_attempt_at, dispatched_at, paid_at, discount_minor, discount_percent,
                         coupon_id, credit_minor)
    values (${subscriptionId}, ${plan.id}, ${plan.quantity}, 'plan_change', ${planChangeId}, ${charge.start.toISO()},
            ${charge.end.toISO()}, ${charge.amountMinor}, ${plan.currency}, ${free ? "paid" : "scheduled"}, ${free ? null : nowIso},
            ${free ? null : tx`now()`}, ${free ? nowIso : null}, ${charge.discountMinor}, ${charge.discountPercent},
            ${charge.couponId}, ${charge.creditMinor})
    returning id`;
  return row!.id;
}
