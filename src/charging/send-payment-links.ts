import { nextLinkStep } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInstant, type SqlTx } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import { paymentLinkUrl } from "./payment-link-url.js";

/**
 * Rule: a due charge of a `send_payment_link` subscription is never sent to GetnewPayment. Its
 * payment link goes out instead: the charge becomes awaiting_payment (out of the dispatcher's
 * reach: no next_attempt_at), its payment_links row says when the first reminder is due, and
 * `charge.payment_link_created` carries the link to the merchant's webhooks. A compare-and-set on
 * the charge (scheduled or retrying) and the subscription's method, read under a share lock (a
 * switch of method locks it for update), so a charge is sent once and never while it is being
 * switched back to its card. A link sent again after such a switch starts its reminders afresh.
 *
 * sendPaymentLinksIn runs in the caller's transaction (switching methods); sendPaymentLinks in its
 * own. Both return the ids of the charges whose link went out.
 */
type Ctx = Pick<EngineContext, "clock" | "vault" | "publicUrl" | "dunning" | "config">;

export function sendPaymentLinks(
  ctx: Ctx & Pick<EngineContext, "db">,
  chargeIds: readonly string[],
  actor: string,
): Promise<string[]> {
  if (chargeIds.length === 0) return Promise.resolve([]);
  return ctx.db.$client.begin((tx) => sendPaymentLinksIn(ctx, tx, chargeIds, actor));
}

interface SentRow {
  id: string;
  subscription_id: string;
  customer_id: string;
  amount_minor: string;
  currency: string;
  period_start: string;
  period_end: string;
}

export async function sendPaymentLinksIn(
  ctx: Ctx,
  sql: SqlTx,
  chargeIds: readonly string[],
  actor: string,
): Promise<string[]> {
  if (chargeIds.length === 0) return [];
  const ids = [...chargeIds];
  const now = ctx.clock.now();
  const first = nextLinkStep(
    ctx.dunning,
    { sentAt: now, remindersSent: 0 },
    ctx.config.PAYMENT_LINK_GRACE_DAYS,
  );
  const sent = await sql<SentRow[]>`
    with payers as (
      select s.id, s.customer_id from subscriptions s
      where s.id in (select subscription_id from charges where id = any(${ids}::uuid[]))
        and s.collection_method = 'send_payment_link'
      order by s.id
      for share of s
    )
    update charges c set status = 'awaiting_payment', next_attempt_at = null, dispatched_at = null
    from payers p
    where c.id = any(${ids}::uuid[]) and c.subscription_id = p.id and c.status in ('scheduled', 'retrying')
    returning c.id, c.subscription_id, p.customer_id, c.amount_minor::text, c.currency,
      c.period_start, c.period_end`;
  if (sent.length === 0) return [];
  const at = now.toUTC().toISO();
  await sql`
    insert into payment_links (charge_id, sent_at, next_reminder_at)
    select id, ${at}::timestamptz, ${first.at.toUTC().toISO()}::timestamptz
    from unnest(${sent.map((row) => row.id)}::uuid[]) as l(id)
    on conflict (charge_id) do update set sent_at = excluded.sent_at, reminders_sent = 0,
      last_reminder_at = null, next_reminder_at = excluded.next_reminder_at`;
  await recordEvents(
    sql,
    sent.map((row) => ({
      type: "charge.payment_link_created",
      actor,
      occurredAt: now,
      subscriptionId: row.subscription_id,
      customerId: row.customer_id,
      chargeId: row.id,
      data: {
        payment_link: paymentLinkUrl(ctx, row.id),
        collection_method: "send_payment_link",
        amount_minor: Number(row.amount_minor),
        currency: row.currency,
        period_start: pgInstant(row.period_start).toUTC().toISO(),
        period_end: pgInstant(row.period_end).toUTC().toISO(),
        [first.kind === "remind" ? "next_reminder_at" : "due_by"]: first.at.toUTC().toISO(),
      },
    })),
  );
  return sent.map((row) => row.id);
}
