import type { DateTime } from "luxon";
import type { PendingQuery, Row } from "postgres";
import { assertTransition, type LinkStep, nextLinkStep } from "../billing/index.js";
import {
  type LockedCharge,
  lockCharges,
  loggedEvent,
  paymentLinkUrl,
  subscriptionPatch,
  writeSubscriptionPatches,
} from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInstant, type SqlRunner, type SqlTx } from "../db/index.js";
import { supersedeCheckouts } from "../enrollment/index.js";
import { EVENT_TYPES, type EventInput, recordEvents } from "../events/index.js";
import { settleCheckout } from "./settle-checkout.js";

/**
 * Rule: reminders instead of retries. Run by the status checks' worker, which the billing tick
 * hands the `links` check once links' next step has come (payment_links.next_reminder_at on the
 * billing clock), over them in one bounded batch:
 * - a link whose charge left awaiting_payment (paid, ended, back on the card) stops;
 * - an open checkout is asked about first (settle-checkout.ts): the customer may have paid it and
 *   the return and webhook never reached us; the gateway not answering leaves the link due;
 * - otherwise the dunning policy's next step (billing/payment-link.ts): a reminder
 *   (`charge.payment_link_reminder`, and a subscription still in good standing becomes past_due
 *   at the first, since its payment is late), or, once reminders ran out and the grace passed,
 *   the policy's terminal action exactly as for cards: the charge uncollectible (the tick then
 *   invoices it), the subscription unpaid or canceled, an open checkout superseded and watched.
 * Each step is a compare-and-set on reminders_sent under the subscription and charge locks, so
 * overlapping runs send one reminder and end a charge once.
 *
 * `holdEnds` (the gateway circuit breaker is open): checkouts are still asked about and reminders
 * still go, but no charge is ended: the customer may have found the gateway unable to take the
 * payment, which is no reason to condemn them; the link stays due and ends once collection resumes.
 */
export const MAX_LINK_STEPS_PER_RUN = 200;
const ACTOR = "payment-links";

type Ctx = Pick<
  EngineContext,
  "db" | "clock" | "gateway" | "logger" | "config" | "vault" | "publicUrl" | "dunning"
>;

interface DueRow {
  charge_id: string;
  status: string;
  sent_at: string;
  reminders_sent: number;
  attempt_id: string | null;
  order_id: string | null;
  attempt_number: number | null;
  save_card: boolean | null;
}

export interface LinkSweep {
  reminded: number;
  ended: number;
  paid: number;
}

export async function remindPaymentLinks(
  ctx: Ctx,
  options: { batchSize: number; holdEnds?: boolean },
): Promise<LinkSweep> {
  const sweep: LinkSweep = { reminded: 0, ended: 0, paid: 0 };
  const now = ctx.clock.now();
  const due = await ctx.db.$client<DueRow[]>`
    select l.charge_id, c.status::text as status, l.sent_at, l.reminders_sent,
      a.id as attempt_id, a.order_id, a.attempt_number, a.save_card
    ${linksDue(ctx.db.$client, now)}
    order by l.next_reminder_at, l.charge_id
    limit ${Math.min(options.batchSize, MAX_LINK_STEPS_PER_RUN)}`;
  for (const row of due) {
    if (row.status !== "awaiting_payment") {
      await ctx.db
        .$client`update payment_links set next_reminder_at = null where charge_id = ${row.charge_id}::uuid`;
      continue;
    }
    if (row.attempt_id !== null) {
      const outcome = await settleCheckout(ctx, {
        id: row.attempt_id,
        chargeId: row.charge_id,
        orderId: row.order_id!,
        attemptNumber: row.attempt_number!,
        saveCard: row.save_card === true,
      });
      if (outcome === "unavailable") continue;
      if (outcome === "paid" || outcome === "duplicate" || outcome === "held") {
        sweep.paid += 1;
        continue;
      }
    }
    const link = { sentAt: pgInstant(row.sent_at), remindersSent: row.reminders_sent };
    const step = nextLinkStep(ctx.dunning, link, ctx.config.PAYMENT_LINK_GRACE_DAYS);
    if (step.kind === "end" && options.holdEnds === true) continue;
    const done = await ctx.db.$client.begin((tx) => takeStep(ctx, tx, row, step));
    if (done) sweep[step.kind === "remind" ? "reminded" : "ended"] += 1;
  }
  return sweep;
}

async function takeStep(ctx: Ctx, tx: SqlTx, row: DueRow, step: LinkStep): Promise<boolean> {
  const now = ctx.clock.now();
  const locked = (await lockCharges(tx, [row.charge_id])).get(row.charge_id);
  if (locked?.charge.status !== "awaiting_payment") return false;
  const { subscription, charge } = locked;
  const subjects = {
    actor: ACTOR,
    occurredAt: now,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    chargeId: charge.id,
  };
  const money = { amount_minor: charge.amountMinor, currency: charge.currency };
  const events: EventInput[] = [];

  if (step.kind === "remind") {
    const following = nextLinkStep(
      ctx.dunning,
      { sentAt: pgInstant(row.sent_at), remindersSent: step.number },
      ctx.config.PAYMENT_LINK_GRACE_DAYS,
    );
    const moved = await tx`
      update payment_links set reminders_sent = ${step.number}, last_reminder_at = ${now.toUTC().toISO()}::timestamptz,
        next_reminder_at = ${following.at.toUTC().toISO()}::timestamptz
      where charge_id = ${charge.id}::uuid and reminders_sent = ${row.reminders_sent}`;
    if (moved.count === 0) return false;
    await tx`update charges set first_failed_at = coalesce(first_failed_at, ${row.sent_at}::timestamptz) where id = ${charge.id}::uuid`;
    events.push({
      ...subjects,
      type: EVENT_TYPES.chargePaymentLinkReminder,
      data: {
        payment_link: paymentLinkUrl(ctx, charge.id),
        reminder: step.number,
        ...money,
        [following.kind === "remind" ? "next_reminder_at" : "due_by"]: following.at.toUTC().toISO(),
      },
    });
    if (subscription.status === "active" || subscription.status === "trialing")
      events.push(...(await moveSubscription(tx, locked, "past_due", now, subjects)));
  } else {
    await supersedeCheckouts(ctx, tx, { chargeIds: [charge.id] }, "collection ended unpaid");
    const ended = await tx`
      update charges set status = 'uncollectible', last_decline_description = 'payment link not paid'
      where id = ${charge.id}::uuid and status = 'awaiting_payment'`;
    if (ended.count === 0) return false;
    await tx`update payment_links set next_reminder_at = null where charge_id = ${charge.id}::uuid`;
    events.push({
      ...subjects,
      type: "charge.uncollectible",
      data: { reason: "payment_link_unpaid", reminders: row.reminders_sent, ...money },
    });
    const to = step.action === "cancel" ? "canceled" : "unpaid";
    if (subscription.status !== to && subscription.status !== "canceled")
      events.push(...(await moveSubscription(tx, locked, to, now, subjects)));
  }
  await recordEvents(tx, events);
  return true;
}

/** The subscription's move as the charge path makes it: its patch, and the event of its new state. */
async function moveSubscription(
  tx: SqlTx,
  locked: LockedCharge,
  to: "past_due" | "unpaid" | "canceled",
  now: DateTime,
  subjects: Omit<EventInput, "type" | "data">,
): Promise<EventInput[]> {
  const { subscription, charge } = locked;
  assertTransition(subscription.status, to);
  const patch = subscriptionPatch(to, subscription, now, `payment link of charge ${charge.id} not paid`);
  await writeSubscriptionPatches(tx, [{ ...patch, id: subscription.id }]);
  const logged = loggedEvent({ type: "subscription.state_changed", from: subscription.status, to });
  return [{ ...subjects, type: logged.type, data: { ...logged.data, reason: "payment_link_unpaid" } }];
}

/** Links whose next step is due at `now`, as remindPaymentLinks selects them; the tick asks it too. */
export function linksDue(sql: SqlRunner, now: DateTime): PendingQuery<Row[]> {
  return sql`
    from payment_links l
    join charges c on c.id = l.charge_id
    left join charge_attempts a on a.charge_id = c.id and a.channel = 'checkout' and a.status = 'in_flight'
    where l.next_reminder_at is not null and l.next_reminder_at <= ${now.toUTC().toISO()}::timestamptz`;
}
