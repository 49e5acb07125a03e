import type { PendingQuery, Row, Sql } from "postgres";
import { pgInstantOrNull, pgInteger } from "../db/index.js";

/**
 * What needs a person, fresh on every view (never cached: an operator acts on it and reloads):
 * charges held for review, charges that ended uncollectible, enrolments flagged for an operator,
 * invoices the gateway refused, and webhook endpoints failing this week. Each list is the first
 * few of a partial index made for it (migration 0006), with the total beside it. The charge lists
 * take their few before joining customers and count the total from the partial index alone, so
 * thousands of uncollectible charges are not each joined to a customer for a list of twenty.
 * Each row's `since` is on the billing clock, as the periods and the range are: when the event log
 * last recorded the fact that put it in the list (see recordedAt).
 */

const LISTED = 20;

export interface AttentionCharge {
  chargeId: string;
  subscriptionId: string;
  customerEmail: string;
  amountMinor: number;
  currency: string;
  attemptCount: number;
  lastDeclineCode: string | null;
  /** Billing clock; null when no event records it. */
  since: string | null;
}

export interface AttentionEnrollment {
  enrollmentId: string;
  subscriptionId: string;
  customerEmail: string;
  note: string;
  since: string | null;
}

export interface FailedInvoice {
  invoiceId: string;
  chargeId: string;
  amountMinor: number;
  currency: string;
  lastError: string | null;
  since: string | null;
}

export interface FailingEndpoint {
  endpointId: string;
  url: string;
  failed: number;
  retrying: number;
  lastError: string | null;
}

export interface Listed<T> {
  total: number;
  items: T[];
}

export interface Attention {
  /** Attempts whose outcome is not known right now (being reconciled, or held for a person). */
  unknownOutcomes: number;
  heldCharges: Listed<AttentionCharge>;
  uncollectibleCharges: Listed<AttentionCharge>;
  enrollments: Listed<AttentionEnrollment>;
  failedInvoices: Listed<FailedInvoice>;
  failingEndpoints: FailingEndpoint[];
}

interface ChargeRow {
  id: string;
  subscription_id: string;
  email: string;
  amount_minor: string;
  currency: string;
  attempt_count: number;
  last_decline_code: string | null;
  since: string | null;
  total: string;
}

type Fragment = PendingQuery<Row[]>;

const instant = (text: string | null) => pgInstantOrNull(text)?.toISO() ?? null;

function listed<R extends { total: string }, T>(rows: R[], map: (row: R) => T): Listed<T> {
  return { total: pgInteger(rows[0]?.total ?? 0), items: rows.map(map) };
}

const chargeOf = (r: ChargeRow): AttentionCharge => ({
  chargeId: r.id,
  subscriptionId: r.subscription_id,
  customerEmail: r.email,
  amountMinor: pgInteger(r.amount_minor),
  currency: r.currency,
  attemptCount: r.attempt_count,
  lastDeclineCode: r.last_decline_code,
  since: instant(r.since),
});

/**
 * When the event log (occurred_at, the billing clock) last recorded a fact about a listed row, of
 * its subscription's events that `fact` matches. The rows' own created_at and updated_at are
 * Postgres's wall time, which a controllable clock (the demo, tests) leaves behind. The events
 * have no index by charge; a subscription's few, through events_subscription_idx, are read for
 * each of the few rows listed. Null for a row no event mentions (one written by hand).
 */
function recordedAt(sql: Sql, subscription: Fragment, fact: Fragment): Fragment {
  return sql`(select max(ev.occurred_at) from events ev
              where ev.subscription_id = ${subscription} and ${fact})::text`;
}

export async function attention(sql: Sql): Promise<Attention> {
  // The status is literal SQL, so that the planner can match it to the partial index whatever
  // plan the prepared statement settles on.
  const charges = (status: "needs_review" | "uncollectible") => {
    const where = status === "needs_review" ? sql`status = 'needs_review'` : sql`status = 'uncollectible'`;
    // The newest uncollectible first: an operator retries what just fell out of dunning, not last year's.
    const order = status === "needs_review" ? sql`asc` : sql`desc`;
    const since = recordedAt(
      sql,
      sql`c.subscription_id`,
      sql`ev.charge_id = c.id and ev.type = ${`charge.${status}`}`,
    );
    return sql<ChargeRow[]>`
      with listed as (
        select id, subscription_id, amount_minor, currency, attempt_count, last_decline_code, updated_at
        from charges where ${where}
        order by updated_at ${order}
        limit ${LISTED})
      select c.id, c.subscription_id, cu.email, c.amount_minor::text, c.currency, c.attempt_count,
             c.last_decline_code, ${since} as since,
             (select count(*) from charges where ${where})::text as total
      from listed c
      join subscriptions s on s.id = c.subscription_id
      join customers cu on cu.id = s.customer_id
      order by c.updated_at ${order}`;
  };
  const [held, uncollectible, enrollments, invoices, endpoints, [open]] = await Promise.all([
    charges("needs_review"),
    charges("uncollectible"),
    sql<
      {
        id: string;
        subscription_id: string;
        email: string;
        note: string;
        since: string | null;
        total: string;
      }[]
    >`
      select e.id, e.subscription_id, e.email, e.note, e.total,
             ${recordedAt(sql, sql`e.subscription_id`, sql`ev.data->>'enrollment_id' = e.id::text`)} as since
      from (
        select e.id, e.subscription_id, cu.email, e.operator_attention as note, e.created_at,
               count(*) over ()::text as total
        from enrollments e
        join subscriptions s on s.id = e.subscription_id
        join customers cu on cu.id = s.customer_id
        where e.operator_attention is not null
        order by e.created_at
        limit ${LISTED}) e
      order by e.created_at`,
    sql<
      {
        id: string;
        charge_id: string;
        amount_minor: string;
        currency: string;
        last_error: string | null;
        since: string | null;
        total: string;
      }[]
    >`
      select i.id, i.charge_id, i.amount_minor, i.currency, i.last_error, i.total,
             ${recordedAt(sql, sql`c.subscription_id`, sql`ev.charge_id = i.charge_id and ev.data->>'invoice_id' = i.id::text`)} as since
      from (
        select id, charge_id, amount_minor::text, currency, last_error, created_at,
               count(*) over ()::text as total
        from invoices where status = 'failed'
        order by created_at desc
        limit ${LISTED}) i
      join charges c on c.id = i.charge_id
      order by i.created_at desc`,
    sql<{ endpoint_id: string; url: string; failed: string; retrying: string; last_error: string | null }[]>`
      select d.endpoint_id, e.url,
             count(*) filter (where d.status = 'failed')::text as failed,
             count(*) filter (where d.status = 'pending')::text as retrying,
             (array_agg(d.last_error order by d.created_at desc))[1] as last_error
      from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
      where (d.status = 'failed' or (d.status = 'pending' and d.attempts > 0))
        and d.created_at > now() - interval '7 days'
      group by d.endpoint_id, e.url
      order by count(*) desc
      limit ${LISTED}`,
    sql<{ n: string }[]>`
      select count(*)::text as n from charge_attempts where status in ('unknown', 'needs_review')`,
  ]);
  return {
    unknownOutcomes: pgInteger(open?.n ?? 0),
    heldCharges: listed(held, chargeOf),
    uncollectibleCharges: listed(uncollectible, chargeOf),
    enrollments: listed(enrollments, (r) => ({
      enrollmentId: r.id,
      subscriptionId: r.subscription_id,
      customerEmail: r.email,
      note: r.note,
      since: instant(r.since),
    })),
    failedInvoices: listed(invoices, (r) => ({
      invoiceId: r.id,
      chargeId: r.charge_id,
      amountMinor: pgInteger(r.amount_minor),
      currency: r.currency,
      lastError: r.last_error,
      since: instant(r.since),
    })),
    failingEndpoints: endpoints.map((r) => ({
      endpointId: r.endpoint_id,
      url: r.url,
      failed: pgInteger(r.failed),
      retrying: pgInteger(r.retrying),
      lastError: r.last_error,
    })),
  };
}
