import type { Sql } from "postgres";
import { pgInstant, pgInteger } from "../db/index.js";
import type { Tally } from "./collection-scans.js";
import type { OpsRange } from "./range.js";

/**
 * Collection by payment link, for the ops dashboard:
 * - money collected in the range by card and by link. A charge counts as paid by link when it has a
 *   payment_links row (its link went out), not by the channel of the attempt that paid it: the
 *   row is reached by primary key, where the paying attempt would cost one more probe per charge
 *   (twice to three times the time on 40 % link charges). The one case this miscounts is a link
 *   charge switched back to its card and paid by the card, which counts as link. Only the link
 *   side is read: paid charges of the range (charges_paid_at_idx) that have a link
 *   (payment_links_pkey, index-only), or, for a long range, the links joined to those charges,
 *   as the planner finds cheaper. The card side is the range's collections total less it, so
 *   the two always add up to "Collected" (card then means every other payment: card tokens, and
 *   charges of nothing paid without the gateway);
 * - the funnel of the links sent in the range (payment_links_sent_idx, each joined to its charge
 *   by primary key): sent, opened, paid (at any time since), and of those paid how many after at
 *   least one reminder (reminders_sent > 0);
 * - what waits on a customer now: charges awaiting payment, per currency, with the oldest link.
 *   Every such charge's link has its next step due (next_reminder_at is cleared only when the
 *   charge leaves awaiting_payment), so this walks payment_links_due_idx, which holds only the
 *   open links, and looks each charge up by primary key, rather than scanning charges (which has
 *   no index on that status).
 * Neither link read is rolled up by closed day as collections are (ops_collection_days has no
 * column for it): a cold 30- or 90-day view joins the range's link charges, about a scan of
 * charges when most charges go by link.
 */

export interface PaymentLinkFunnel {
  /** Links sent in the range (a link sent again after a switch of method counts at its last send). */
  sent: Tally;
  /** Of those, opened by the customer at least once. */
  opened: { count: number };
  /** Of those, paid (at any time since). */
  paid: Tally;
  /** Of those paid, how many only after at least one reminder. */
  recoveredByReminder: Tally;
  /** paid ÷ sent, 0–1; null when no link was sent. */
  paidRate: number | null;
}

export interface AwaitingCurrency {
  currency: string;
  count: number;
  amountMinor: number;
  oldestSentAt: string;
}

export interface AwaitingPayment {
  /** Charges in status awaiting_payment, every currency. */
  count: number;
  /** When the oldest of their links went out, every currency; null when none waits. */
  oldestSentAt: string | null;
  /** Per currency, the most waiting first. */
  byCurrency: AwaitingCurrency[];
}

/** What paymentLinkFigures reads; the card side of the split needs the range's collections. */
export interface PaymentLinkFigures {
  currency: string;
  /** Charges of the currency paid in the range that have a payment link. */
  paidByLink: Tally;
  funnel: PaymentLinkFunnel;
  awaiting: AwaitingPayment;
}

export interface PaymentLinkOverview {
  currency: string;
  /** Collected in the range by how it was paid: card + link = collections.totals.paid. */
  collected: { card: Tally; link: Tally };
  funnel: PaymentLinkFunnel;
  awaiting: AwaitingPayment;
}

/** The split of the range's collections: the link side as read, the card side the rest. */
export function paymentLinkOverview(collected: Tally, figures: PaymentLinkFigures): PaymentLinkOverview {
  const { paidByLink, ...rest } = figures;
  return {
    ...rest,
    collected: {
      card: {
        count: collected.count - paidByLink.count,
        amountMinor: collected.amountMinor - paidByLink.amountMinor,
      },
      link: paidByLink,
    },
  };
}

interface FunnelRow {
  sent: string;
  sent_amount: string;
  opened: string;
  paid: string;
  paid_amount: string;
  recovered: string;
  recovered_amount: string;
}

interface AwaitingRow {
  currency: string;
  n: string;
  amount: string;
  oldest: string;
}

export async function paymentLinkFigures(
  sql: Sql,
  range: OpsRange,
  currency: string,
): Promise<PaymentLinkFigures> {
  const lower = range.from.toUTC().toISO();
  const upper = range.to.toUTC().toISO();
  const [[paid], [funnel], awaiting] = await Promise.all([
    sql<{ n: string; amount: string }[]>`
      select count(*)::text as n, coalesce(sum(c.amount_minor), 0)::text as amount
      from charges c
      where c.status = 'paid' and c.paid_at >= ${lower}::timestamptz and c.paid_at < ${upper}::timestamptz
        and c.currency = ${currency}
        and exists (select 1 from payment_links l where l.charge_id = c.id)`,
    sql<FunnelRow[]>`
      select count(*)::text as sent, coalesce(sum(c.amount_minor), 0)::text as sent_amount,
             count(*) filter (where l.opened_at is not null)::text as opened,
             count(*) filter (where c.status = 'paid')::text as paid,
             coalesce(sum(c.amount_minor) filter (where c.status = 'paid'), 0)::text as paid_amount,
             count(*) filter (where c.status = 'paid' and l.reminders_sent > 0)::text as recovered,
             coalesce(sum(c.amount_minor) filter (where c.status = 'paid' and l.reminders_sent > 0), 0)::text
               as recovered_amount
      from payment_links l
      join charges c on c.id = l.charge_id
      where l.sent_at >= ${lower}::timestamptz and l.sent_at < ${upper}::timestamptz
        and c.currency = ${currency}`,
    // The lateral's offset 0 keeps the planner probing charges for each open link instead of
    // scanning charges for the status.
    sql<AwaitingRow[]>`
      select c.currency, count(*)::text as n, sum(c.amount_minor)::text as amount,
             min(l.sent_at)::text as oldest
      from payment_links l
      cross join lateral (
        select c.currency, c.amount_minor from charges c
        where c.id = l.charge_id and c.status = 'awaiting_payment'
        offset 0) c
      where l.next_reminder_at is not null
      group by c.currency
      order by count(*) desc, c.currency`,
  ]);
  const tally = (n: string | undefined, amount: string | undefined): Tally => ({
    count: pgInteger(n ?? 0),
    amountMinor: pgInteger(amount ?? 0),
  });
  const sent = tally(funnel?.sent, funnel?.sent_amount);
  const paidFromSent = tally(funnel?.paid, funnel?.paid_amount);
  const byCurrency = awaiting.map((r) => ({
    currency: r.currency,
    count: pgInteger(r.n),
    amountMinor: pgInteger(r.amount),
    oldestSentAt: pgInstant(r.oldest).toISO() ?? "",
  }));
  const oldest = byCurrency.map((a) => a.oldestSentAt).sort()[0] ?? null;
  return {
    currency,
    paidByLink: tally(paid?.n, paid?.amount),
    funnel: {
      sent,
      opened: { count: pgInteger(funnel?.opened ?? 0) },
      paid: paidFromSent,
      recoveredByReminder: tally(funnel?.recovered, funnel?.recovered_amount),
      paidRate: sent.count === 0 ? null : paidFromSent.count / sent.count,
    },
    awaiting: {
      count: byCurrency.reduce((total, a) => total + a.count, 0),
      oldestSentAt: oldest,
      byCurrency,
    },
  };
}
