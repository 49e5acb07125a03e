import { and, asc, eq, gt, inArray, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { DateTime } from "luxon";
import { EXPIRY_NOTICE_WINDOW } from "../billing/index.js";
import type { Tx } from "../db/index.js";
import { events, paymentMethods, subscriptions } from "../db/schema/index.js";
import { EVENT_TYPES, recordEvent } from "../events/index.js";
import type { WebhookContext } from "./context.js";

/**
 * The `payment_method.expiring` notice: two weeks before a saved card token stops working, the
 * merchant is told, with a link where the customer can add a new card, so the renewal does not
 * have to fail first. It runs from the scheduler, daily or more often; every run finds the same
 * cards for two weeks, so the notice is recorded once per card, checked against the event log.
 */

/** Subscriptions that will be charged again, so their card matters. */
const LIVE_STATUSES = ["trialing", "active", "past_due"] as const;

export interface ExpiringPaymentMethod {
  paymentMethodId: string;
  subscriptionId: string;
  customerId: string;
  cardLast4: string | null;
  /** "MM/YY" as on the card. */
  cardExpiryMonth: string | null;
  /** When the token stops working: six months after issue or the card's expiry, whichever is first. */
  expiresAt: DateTime;
}

/**
 * Whether the notice for this card was already recorded. Looked up through the subscription's
 * index on events (a token is issued by one subscription's enrollment, so its notice is always
 * recorded on that subscription) rather than by scanning every event of the type.
 */
function noticeRecorded(paymentMethodId: SQL | string, subscriptionId: SQL | string): SQL {
  return sql`exists (
    select 1 from ${events}
    where ${events.subscriptionId} = ${subscriptionId}
      and ${events.type} = ${EVENT_TYPES.paymentMethodExpiring}
      and ${events.data} ->> 'payment_method_id' = ${paymentMethodId}::text
  )`;
}

export interface FindExpiringOptions {
  now: DateTime;
  /** Defaults to 14. */
  windowDays?: number;
}

/**
 * Cards that still work at `now` but stop within the window, and are the current card of a live
 * subscription: the card of a canceled subscription, or one already replaced, needs no notice.
 * Cards already notified are left out.
 */
export async function findExpiringPaymentMethods(
  ctx: Pick<WebhookContext, "db">,
  { now, windowDays = EXPIRY_NOTICE_WINDOW.as("days") }: FindExpiringOptions,
): Promise<ExpiringPaymentMethod[]> {
  const at = now.toJSDate();
  const horizon = now.plus({ days: windowDays }).toJSDate();
  const rows = await ctx.db
    .select({
      paymentMethodId: paymentMethods.id,
      subscriptionId: subscriptions.id,
      customerId: subscriptions.customerId,
      cardLast4: paymentMethods.cardLast4,
      cardExpiryMonth: paymentMethods.cardExpiryMonth,
      expiresAt: paymentMethods.expiresAt,
    })
    .from(paymentMethods)
    .innerJoin(subscriptions, eq(subscriptions.paymentMethodId, paymentMethods.id))
    .where(
      and(
        inArray(subscriptions.status, [...LIVE_STATUSES]),
        // Same rule as tokenStatus(): a deactivation or refusal counts from the moment it is set.
        or(isNull(paymentMethods.deactivatedAt), gt(paymentMethods.deactivatedAt, at)),
        or(isNull(paymentMethods.unusableAt), gt(paymentMethods.unusableAt, at)),
        gt(paymentMethods.expiresAt, at),
        lte(paymentMethods.expiresAt, horizon),
        sql`not ${noticeRecorded(sql`${paymentMethods.id}`, sql`${subscriptions.id}`)}`,
      ),
    )
    .orderBy(asc(paymentMethods.expiresAt), asc(paymentMethods.id));
  return rows.map((row) => ({ ...row, expiresAt: DateTime.fromJSDate(row.expiresAt, { zone: "utc" }) }));
}

export interface NotifyExpiringOptions {
  /** Where the customer adds a new card for this subscription; sent in the event's data. */
  newCardLink: (subscriptionId: string) => string;
  windowDays?: number;
}

export interface ExpiringNotice {
  paymentMethodId: string;
  subscriptionId: string;
  eventId: number;
}

async function recordNotice(
  tx: Tx,
  card: ExpiringPaymentMethod,
  now: DateTime,
  newCardLink: string,
): Promise<number | null> {
  // Serialises concurrent runs on this card, so two schedulers cannot both pass the check below.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`payment_method.expiring:${card.paymentMethodId}`}, 0))`,
  );
  const [already] = await tx.execute<{ found: boolean }>(
    sql`select ${noticeRecorded(card.paymentMethodId, card.subscriptionId)} as found`,
  );
  if (already?.found) return null;
  const event = await recordEvent(tx, {
    type: EVENT_TYPES.paymentMethodExpiring,
    actor: "scheduler",
    occurredAt: now,
    subscriptionId: card.subscriptionId,
    customerId: card.customerId,
    data: {
      payment_method_id: card.paymentMethodId,
      card_last4: card.cardLast4,
      card_expiry_month: card.cardExpiryMonth,
      expires_at: card.expiresAt.toJSDate().toISOString(),
      new_card_link: newCardLink,
    },
  });
  return event.id;
}

/** Records the notice for every card newly inside the window; returns the notices recorded now. */
export async function notifyExpiringPaymentMethods(
  ctx: Pick<WebhookContext, "db" | "clock" | "logger">,
  { newCardLink, windowDays }: NotifyExpiringOptions,
): Promise<ExpiringNotice[]> {
  const now = ctx.clock.now();
  const cards = await findExpiringPaymentMethods(ctx, { now, windowDays });
  const notices: ExpiringNotice[] = [];
  for (const card of cards) {
    const link = newCardLink(card.subscriptionId);
    const eventId = await ctx.db.transaction((tx) => recordNotice(tx, card, now, link));
    if (eventId === null) continue;
    notices.push({ paymentMethodId: card.paymentMethodId, subscriptionId: card.subscriptionId, eventId });
    ctx.logger.info(
      {
        component: "webhooks",
        paymentMethodId: card.paymentMethodId,
        eventId,
        expiresAt: card.expiresAt.toISO(),
      },
      "payment method expiring notice recorded",
    );
  }
  return notices;
}
