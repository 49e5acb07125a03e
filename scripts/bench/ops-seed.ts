/**
 * Seeds the ops dashboard benchmark (scripts/bench-ops.ts) with set-based SQL: a few big
 * INSERT … SELECT over generate_series, so a million subscriptions take minutes, not hours. Rows are
 * written as the engine would have left them (every table check holds), in the order the engine
 * would have written them (charges and attempts by time), but through no service: only the shape
 * of the data matters here. Outcomes are drawn from hashint4 of the row number, so every run seeds
 * the same data relative to `base` (now).
 *
 * - 20 QAR plans: 14 monthly, 3 yearly, 3 weekly, each with a twentieth of the subscriptions;
 * - N customers and subscriptions: 90 % active, 3 % past_due, 2 % unpaid, 2 % trialing, 1 % paused,
 *   2 % canceled (canceled_at over the last 90 days); next_billing_at over the next 30 days;
 * - one recurring card each, expiring over the next year (a canceled subscription's card stopped);
 * - three months of charges, one per subscription and month: 92 % paid at the first attempt, 8 %
 *   entering dunning (retries 1, 3, 5, 7 days after the first failure): half recovered at attempts
 *   2–4, 35 % uncollectible after 5, some recovered at 5 or canceled, about 1 in 10,000 held for
 *   review; those whose outcome is still ahead of `base` are retrying;
 * - their attempts (declined, approved, needs_review); 5,000 invoices for the newest uncollectible
 *   charges (one in ten failed); 2,000 enrollments (2 % flagged for an operator); three webhook
 *   endpoints over 10 days of events, one of them failing.
 *
 * Loaded as pg_restore loads: the big tables' plain indexes are dropped first and built again from
 * their own definitions once the rows are in, and foreign keys are not checked row by row
 * (session_replication_role = replica, which needs a superuser). Every reference is derived from
 * the same row numbers, and a small seed with the checks on (BENCH_OPS_SEED_CHECKED=1) proves it.
 */
import type { Sql } from "postgres";

export interface SeedStep {
  name: string;
  rows: number;
  seconds: number;
}

const BULK_TABLES = ["customers", "subscriptions", "payment_methods", "charges", "charge_attempts"];

export async function seedOpsData(
  pool: Sql,
  base: string,
  n: number,
  options: { checked: boolean; onStep: (step: SeedStep) => void },
): Promise<void> {
  const sql = await pool.reserve();
  try {
    const step = async (name: string, run: () => Promise<{ count: number }>) => {
      const start = performance.now();
      const { count } = await run();
      options.onStep({ name, rows: count, seconds: (performance.now() - start) / 1000 });
    };
    // Indexes that back no constraint (primary and unique keys stay, as the data must satisfy them).
    const plain = options.checked
      ? []
      : await sql<{ name: string; definition: string }[]>`
          select i.indexname as name, i.indexdef as definition from pg_indexes i
          where i.schemaname = current_schema() and i.tablename in ${sql(BULK_TABLES)}
            and not exists (select 1 from pg_constraint c where c.conindid = quote_ident(i.indexname)::regclass)`;
    if (!options.checked) {
      await sql`set session_replication_role = replica`;
      await sql`set maintenance_work_mem = '512MB'`;
      for (const { name } of plain) await sql`drop index ${sql(name)}`;
    }
    await insertRows(sql, base, n, step);
    await step("indexes built", async () => {
      for (const { definition } of plain) await sql.unsafe(definition);
      return { count: plain.length };
    });
  } finally {
    sql.release();
  }
}

async function insertRows(
  sql: Sql,
  base: string,
  n: number,
  step: (name: string, run: () => Promise<{ count: number }>) => Promise<void>,
): Promise<void> {
  const b = sql`${base}::timestamptz`;

  await step(
    "plans",
    () => sql`
    insert into plans (id, name, amount_minor, currency, interval_unit, interval_count, created_at)
    select md5('plan-' || j)::uuid, 'Plan ' || j,
           case when j <= 14 then 1900 + j * 1000 when j <= 17 then 19900 + j * 10000 else 900 + j * 100 end,
           'QAR',
           (case when j <= 14 then 'month' when j <= 17 then 'year' else 'week' end)::interval_unit,
           1, ${b} - interval '2 years'
    from generate_series(1, 20) j`,
  );

  await step(
    "customers",
    () => sql`
    insert into customers (id, email, name, created_at)
    select md5('cu-' || i)::uuid, 'customer-' || i || '@example.com', 'Customer ' || i,
           ${b} - interval '400 days' + i * interval '30 seconds'
    from generate_series(1, ${n}::int) i`,
  );

  // Subscriptions and their cards reference each other; one statement writes both, and the
  // foreign keys are checked at its end.
  await step(
    "subscriptions + payment_methods",
    () => sql`
    with g as (
      select i, (hashint4(i) & 2147483647) % 100 as s,
             ${b} + ((hashint4(-i) & 2147483647) % 43200) * interval '1 minute' as due,
             ${b} - ((hashint4(i + 7919) & 2147483647) % 129600) * interval '1 minute' as ended,
             ${b} + ((hashint4(i + 104729) & 2147483647) % 525600) * interval '1 minute' as expires,
             ${b} - interval '400 days' + i * interval '30 seconds' as created
      from generate_series(1, ${n}::int) i
    ), st as (
      select g.*, case when s < 90 then 'active' when s < 93 then 'past_due' when s < 95 then 'unpaid'
                       when s < 97 then 'trialing' when s < 98 then 'paused' else 'canceled' end as status
      from g
    ), subs as (
      insert into subscriptions (id, customer_id, plan_id, status, billing_anchor, current_period_start,
        current_period_end, next_billing_at, trial_end, canceled_at, paused_at, ended_reason,
        payment_method_id, created_at, updated_at)
      select md5('su-' || i)::uuid, md5('cu-' || i)::uuid, md5('plan-' || (1 + i % 20))::uuid,
             status::subscription_status, created, due - interval '30 days', due,
             case when status in ('trialing', 'active', 'past_due') then due end,
             case when status = 'trialing' then due end,
             case when status = 'canceled' then ended end,
             case when status = 'paused' then ended end,
             case when status = 'canceled' then 'customer_request' end,
             md5('pm-' || i)::uuid, created, coalesce(case when status in ('canceled', 'paused') then ended end, created)
      from st
      returning 1
    )
    insert into payment_methods (id, customer_id, subscription_id, kind, token_ciphertext, token_nonce,
      token_tag, token_key_id, token_fingerprint, card_last4, card_expiry_month, amount_minor, currency,
      issued_at, expires_at, deactivated_at, deactivation_reason, created_at)
    select md5('pm-' || i)::uuid, md5('cu-' || i)::uuid, md5('su-' || i)::uuid, 'recurring',
           decode(md5('ct-' || i), 'hex'), substring(decode(md5('cn-' || i), 'hex') from 1 for 12),
           decode(md5('tg-' || i), 'hex'), 'bench', md5('fa-' || i) || md5('fb-' || i),
           lpad((i % 10000)::text, 4, '0'), to_char(expires + interval '2 years', 'MM/YY'),
           pl.amount_minor, 'QAR', expires - interval '180 days', expires,
           case when status = 'canceled' then ended end,
           case when status = 'canceled' then 'subscription_canceled' end,
           expires - interval '180 days'
    from st join plans pl on pl.id = md5('plan-' || (1 + i % 20))::uuid`,
  );

  // final_days: when the outcome lands, in days after the first failure (retries at 1, 3, 5, 7).
  await step(
    "charges",
    () => sql`
    insert into charges (id, subscription_id, plan_id, period_start, period_end, amount_minor, currency, status,
      attempt_count, next_attempt_at, first_failed_at, last_decline_code, last_decline_description,
      paid_at, paid_transaction_id, created_at, updated_at)
    select md5('ch-' || i || '-' || k)::uuid, md5('su-' || i)::uuid, pl.id, ps, ps + interval '30 days',
           pl.amount_minor, 'QAR', o.status::charge_status, o.attempts,
           case when o.status = 'retrying' then f.failed_at + (array[1, 3, 5, 7])[t.done + 1] * interval '1 day' end,
           case when f.kind <> 'paid1' then f.failed_at end,
           case when f.kind <> 'paid1' then '51' end,
           case when f.kind <> 'paid1' then 'Insufficient funds' end,
           case when o.status = 'paid' then o.at end,
           case when o.status = 'paid' then 'tx-' || i || '-' || k end,
           ps, o.at
    from generate_series(0, 2) k
    cross join generate_series(1, ${n}::int) i
    cross join lateral (
      select ${b} - interval '90 days' + k * interval '30 days'
               + ((hashint4(i) & 2147483647) % 43000) * interval '1 minute' as ps,
             (hashint4(i * 3 + k) & 2147483647) % 10000 as r) p
    cross join lateral (
      select case when r < 9200 then 'paid1' when r < 9600 then 'recovered' when r < 9880 then 'uncollectible'
                  when r < 9940 then 'recovered5' when r < 9999 then 'canceled' else 'needs_review' end as kind,
             case when r < 9200 then 1 when r < 9600 then 2 + r % 3 when r < 9940 then 5 when r < 9999 then 1 + r % 3
                  else 2 end as final_attempts,
             case when r < 9200 then 0 when r < 9600 then (array[1, 3, 5])[r % 3 + 1] when r < 9940 then 7
                  when r < 9999 then (array[0, 1, 3])[r % 3 + 1] + 0.5 else 1 end as final_days,
             ps + interval '2 minutes' as failed_at) f
    cross join lateral (
      select f.failed_at + f.final_days * interval '1 day' + interval '1 minute' <= ${b} as reached,
             (f.failed_at + interval '1 day 1 minute' <= ${b})::int + (f.failed_at + interval '3 days 1 minute' <= ${b})::int
             + (f.failed_at + interval '5 days 1 minute' <= ${b})::int as done) t
    cross join lateral (
      select case when f.kind = 'paid1' then 'paid' when not t.reached then 'retrying'
                  when f.kind like 'recovered%' then 'paid' else f.kind end as status,
             case when f.kind = 'paid1' or t.reached then f.final_attempts else 1 + t.done end as attempts,
             case when f.kind = 'paid1' then ps + interval '2 minutes'
                  when t.reached then f.failed_at + f.final_days * interval '1 day' + interval '1 minute'
                  else f.failed_at + coalesce((array[1, 3, 5])[t.done], 0) * interval '1 day' + interval '1 minute'
             end as at) o
    join plans pl on pl.id = md5('plan-' || (1 + i % 20))::uuid
    order by ps`,
  );

  // Attempt n of a charge opens at its period start (n = 1) or at retry n − 1, and settles a minute
  // later; the last one pays a paid charge, and is held for a person on a needs_review one.
  await step(
    "charge_attempts",
    () => sql`
    insert into charge_attempts (charge_id, order_id, attempt_number, status, gateway_transaction_id,
      auth_code, decline_code, decline_description, created_at, settled_at)
    select c.id, c.id::text || '/' || a.n, a.n, s.status::charge_attempt_status,
           case when s.status = 'approved' then c.paid_transaction_id end,
           case when s.status = 'approved' then lpad((a.n * 7919 % 1000000)::text, 6, '0') end,
           case when s.status = 'declined' then '51' end,
           case when s.status = 'declined' then 'Insufficient funds' end,
           a.opened, case when s.status <> 'needs_review' then a.opened + interval '1 minute' end
    from charges c
    cross join lateral generate_series(1, c.attempt_count) as n
    cross join lateral (
      select n, case when n = 1 then c.period_start + interval '1 minute'
                     else c.first_failed_at + (array[1, 3, 5, 7])[n - 1] * interval '1 day' end as opened) a
    cross join lateral (
      select case when a.n < c.attempt_count then 'declined' when c.status = 'paid' then 'approved'
                  when c.status = 'needs_review' then 'needs_review' else 'declined' end as status) s
    order by a.opened`,
  );

  await step(
    "invoices",
    () => sql`
    insert into invoices (charge_id, status, gateway_invoice_id, number, link, amount_minor, currency,
      attempts, last_error, created_at, created_at_gateway)
    select id, (case when rn % 10 = 0 then 'failed' else 'created' end)::invoice_status,
           case when rn % 10 <> 0 then 100000 + rn end, 'INV-' || rn,
           case when rn % 10 <> 0 then 'https://pay.example.com/i/' || rn end,
           amount_minor, currency, case when rn % 10 = 0 then 5 else 1 end,
           case when rn % 10 = 0 then 'gateway refused the invoice: customer phone missing' end,
           updated_at + interval '5 minutes', case when rn % 10 <> 0 then updated_at + interval '6 minutes' end
    from (select id, amount_minor, currency, updated_at, row_number() over (order by updated_at) as rn
          from charges where status = 'uncollectible' order by updated_at desc limit 5000) u`,
  );

  await step(
    "enrollments",
    () => sql`
    insert into enrollments (subscription_id, kind, status, amount_minor, currency, gateway_transaction_id,
      operator_attention, created_at, completed_at)
    select s.id, 'recurring', 'completed', pl.amount_minor, pl.currency, 'enr-' || i,
           case when i % 50 = 0 then 'the isVoid return of the enrollment amount failed' end,
           ${b} - i * interval '7 minutes', ${b} - i * interval '7 minutes' + interval '2 minutes'
    from generate_series(1, least(2000, ${n}::int)) i
    join subscriptions s on s.id = md5('su-' || i)::uuid
    join plans pl on pl.id = s.plan_id`,
  );

  await step("webhook endpoints, events, deliveries", async () => {
    await sql`
      insert into webhook_endpoints (id, url, secret, created_at)
      select md5('we-' || j)::uuid, 'https://merchant-' || j || '.example.com/hooks', 'whsec_bench_' || j,
             ${b} - interval '1 year'
      from generate_series(1, 3) j`;
    await sql`
      insert into events (type, actor, data, occurred_at, recorded_at)
      select 'charge.paid', 'system', '{}'::jsonb, t, t
      from generate_series(1, 30000) e, lateral (select ${b} - interval '10 days' + e * interval '28.8 seconds' as t) x
      order by t`;
    // Endpoint 3 is down: a third of its deliveries given up, its last day's still being retried.
    return sql`
      insert into webhook_deliveries (endpoint_id, event_id, event_type, payload, status, attempts,
        last_status_code, last_error, next_attempt_at, delivered_at, created_at)
      select md5('we-' || j)::uuid, ev.id, ev.type, '{}'::jsonb, x.status::webhook_delivery_status,
             case x.status when 'delivered' then 1 when 'failed' then 8 else 3 end,
             case x.status when 'delivered' then 200 else 503 end,
             case when x.status <> 'delivered' then 'endpoint answered 503' end,
             case when x.status = 'pending' then ev.occurred_at + interval '1 day' end,
             case when x.status = 'delivered' then ev.occurred_at + interval '1 second' end,
             ev.occurred_at
      from events ev cross join generate_series(1, 3) j
      cross join lateral (
        select case when j < 3 then 'delivered' when ev.occurred_at > ${b} - interval '1 day' then 'pending'
                    when ev.id % 3 = 0 then 'failed' else 'delivered' end as status) x`;
  });
}
