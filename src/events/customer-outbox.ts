import type { DateTime } from "luxon";
import type { MessageKind } from "../billing/index.js";
import { pgTimestamp, type SqlRunner } from "../db/index.js";

/**
 * What the customer gets from an event, written by the transaction that records it (as webhook
 * deliveries are, see outbox.ts): a numbered receipt for a payment, a numbered credit note for a
 * refund the gateway accepted, and the e-mails the message worker sends (src/messages). So a
 * rolled-back payment has no receipt and no number, and a committed one always has both.
 *
 * Numbers come from document_series, updated in this same transaction: the row lock orders
 * concurrent payers and a rollback returns the number, so every series stays gap-free.
 * Messages skip customers who opted out of the kind and kinds the merchant turned off
 * (merchant_settings); the unique indexes make a replayed event, or a second failure of the same
 * charge, tell the customer nothing new.
 */

/** The event kinds that speak to the customer, and what each says. */
const MESSAGE_OF: Readonly<Record<string, MessageKind>> = {
  "charge.succeeded": "receipt",
  "charge.payment_link_created": "payment_due",
  "charge.payment_link_reminder": "payment_due",
  "charge.failed": "payment_failed",
  "payment_method.expiring": "card_expiring",
  "subscription.renewal_upcoming": "renewal_upcoming",
  "subscription.trial_ending": "trial_ending",
  "subscription.canceled": "subscription_canceled",
  "charge.refunded": "refund_issued",
  "charge.duplicate_refunded": "refund_issued",
};

const REFUND_EVENTS = new Set(["charge.refunded", "charge.duplicate_refunded"]);

export interface OutboxEvent {
  id: number;
  type: string;
  occurredAt: DateTime;
  subscriptionId?: string | null;
  customerId?: string | null;
  chargeId?: string | null;
  data?: Record<string, unknown>;
}

/** A refund event whose money went back (not the request, not a failure). */
function returnedRefundId(event: OutboxEvent): string | null {
  if (!REFUND_EVENTS.has(event.type)) return null;
  const { refund_id: id, refund_status: status } = event.data ?? {};
  return typeof id === "string" && (status === "completed" || status === "under_processing") ? id : null;
}

/** Whether recordEvent must write anything beyond the event for this type. */
export function speaksToCustomer(type: string): boolean {
  return Object.hasOwn(MESSAGE_OF, type);
}

export async function addCustomerOutbox(sql: SqlRunner, events: readonly OutboxEvent[]): Promise<void> {
  const paid = new Map<string, string>();
  const refunded = new Map<string, string>();
  const messages: { event: OutboxEvent; kind: MessageKind }[] = [];
  for (const event of events) {
    const kind = MESSAGE_OF[event.type];
    if (!kind) continue;
    const at = pgTimestamp(event.occurredAt) as string;
    if (kind === "receipt" && event.chargeId && !paid.has(event.chargeId)) paid.set(event.chargeId, at);
    const refundId = returnedRefundId(event);
    if (REFUND_EVENTS.has(event.type) && !refundId) continue;
    if (refundId && !refunded.has(refundId)) refunded.set(refundId, at);
    messages.push({ event, kind });
  }
  if (paid.size > 0) await issueReceipts(sql, paid);
  if (refunded.size > 0) await issueCreditNotes(sql, refunded);
  if (messages.length > 0) await addMessages(sql, messages);
}

/**
 * Receipts for charges just paid, numbered in input order; a charge with one already is skipped.
 * When the merchant records payments in its gateway account, each paid charge also waits there.
 */
async function issueReceipts(sql: SqlRunner, paid: ReadonlyMap<string, string>): Promise<void> {
  await sql`
    with fresh as (
      select d.charge_id::uuid as charge_id, d.issued_at::timestamptz as issued_at, d.ord
      from unnest(${[...paid.keys()]}::text[], ${[...paid.values()]}::text[])
        with ordinality as d(charge_id, issued_at, ord)
      where not exists (select 1 from receipts r where r.charge_id = d.charge_id::uuid)
    ), numbered as (
      update document_series set last_number = last_number + (select count(*) from fresh)
      where series = 'receipt'
      returning last_number
    ), recorded as (
      insert into gateway_payment_records (charge_id, next_attempt_at)
      select f.charge_id, f.issued_at
      from fresh f
      join charges c on c.id = f.charge_id and c.amount_minor > 0
      join merchant_settings m on m.record_paid_invoices
      on conflict do nothing
    )
    insert into receipts (number, charge_id, customer_id, amount_minor, currency, tax_rate_bp, tax_label, issued_at)
    select n.last_number - (select count(*) from fresh) + row_number() over (order by f.ord),
           f.charge_id, s.customer_id, c.amount_minor, c.currency, m.tax_rate_bp, m.tax_label, f.issued_at
    from fresh f
    join charges c on c.id = f.charge_id
    join subscriptions s on s.id = c.subscription_id
    cross join numbered n
    cross join merchant_settings m`;
}

/** Credit notes for refunds the gateway accepted, at the tax rate of the receipt they reverse. */
async function issueCreditNotes(sql: SqlRunner, refunded: ReadonlyMap<string, string>): Promise<void> {
  await sql`
    with fresh as (
      select r.id as refund_id, r.charge_id, r.amount_minor, r.currency,
             d.issued_at::timestamptz as issued_at, d.ord
      from unnest(${[...refunded.keys()]}::text[], ${[...refunded.values()]}::text[])
        with ordinality as d(refund_id, issued_at, ord)
      join refunds r on r.id = d.refund_id::uuid
      where not exists (select 1 from credit_notes n where n.refund_id = r.id)
    ), numbered as (
      update document_series set last_number = last_number + (select count(*) from fresh)
      where series = 'credit_note'
      returning last_number
    )
    insert into credit_notes (number, refund_id, charge_id, customer_id, amount_minor, currency,
                              tax_rate_bp, tax_label, issued_at)
    select n.last_number - (select count(*) from fresh) + row_number() over (order by f.ord),
           f.refund_id, f.charge_id, s.customer_id, f.amount_minor, f.currency,
           coalesce(rc.tax_rate_bp, m.tax_rate_bp), coalesce(rc.tax_label, m.tax_label), f.issued_at
    from fresh f
    join charges c on c.id = f.charge_id
    join subscriptions s on s.id = c.subscription_id
    left join receipts rc on rc.charge_id = f.charge_id
    cross join numbered n
    cross join merchant_settings m`;
}

async function addMessages(
  sql: SqlRunner,
  messages: readonly { event: OutboxEvent; kind: MessageKind }[],
): Promise<void> {
  const column = <T>(pick: (m: { event: OutboxEvent; kind: MessageKind }) => T) => messages.map(pick);
  await sql`
    insert into customer_messages (customer_id, event_id, charge_id, kind, language, to_address, next_attempt_at)
    select c.id, m.event_id, m.charge_id::uuid, m.kind::message_kind, c.language, c.email, m.due::timestamptz
    from unnest(
      ${column((m) => String(m.event.id))}::bigint[], ${column((m) => m.kind)}::text[],
      ${column((m) => m.event.customerId ?? null)}::text[],
      ${column((m) => m.event.subscriptionId ?? null)}::text[],
      ${column((m) => m.event.chargeId ?? null)}::text[],
      ${column((m) => pgTimestamp(m.event.occurredAt))}::text[]
    ) as m(event_id, kind, customer_id, subscription_id, charge_id, due)
    join customers c on c.id = coalesce(
      m.customer_id::uuid,
      (select s.customer_id from subscriptions s where s.id = m.subscription_id::uuid)
    )
    cross join merchant_settings ms
    where not (m.kind::message_kind = any(c.message_opt_outs))
      and not (m.kind::message_kind = any(ms.messages_disabled))
    on conflict do nothing`;
}
