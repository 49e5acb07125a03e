/**
 * What the cluster test reads from the database while it runs and after: paid charges, whether the
 * engine has settled, and how the attempts the cut host left open were settled by the others.
 */
import { readFileSync } from "node:fs";
import type postgres from "postgres";

const POLL_MS = 250;

export async function paidCount(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ paid: string }[]>`select count(*) as paid from charges where status = 'paid'`;
  return Number(row?.paid ?? 0);
}

/**
 * Settled: nothing processing, nothing due waiting to be handed out, no subscription due, no
 * refund in flight, and none of that nor the attempts' states changed for `stableMs` (longer
 * than LATE_PAYMENT_MAX_CHECK_INTERVAL_SECONDS, so a late check due meanwhile has run).
 * Resolves with performance.now() from which nothing changed; throws past `deadline`.
 */
export async function settled(sql: postgres.Sql, deadline: number, stableMs: number): Promise<number> {
  let last = "";
  let since = performance.now();
  for (;;) {
    const [row] = await sql<{ quiet: boolean; signature: string }[]>`
      select
        (not exists (select 1 from charges where status = 'processing')
          and not exists (select 1 from charges
            where status in ('scheduled', 'retrying') and next_attempt_at <= now())
          and not exists (select 1 from subscriptions
            where next_billing_at <= now() and status in ('trialing', 'active', 'past_due'))
          and not exists (select 1 from refunds where status in ('requested', 'unknown'))) as quiet,
        concat_ws('|',
          (select string_agg(status || ':' || n, ',' order by status)
            from (select status::text, count(*) as n from charges group by status) c),
          (select string_agg(status || ':' || n, ',' order by status)
            from (select status::text, count(*) as n from charge_attempts group by status) a),
          (select string_agg(status || ':' || n, ',' order by status)
            from (select status::text, count(*) as n from refunds group by status) r),
          (select count(*) from charge_attempts where duplicate_at is not null)) as signature`;
    const now = performance.now();
    if (!row?.quiet || row.signature !== last) {
      last = row?.signature ?? "";
      since = now;
    } else if (now - since >= stableMs) {
      return since;
    }
    if (now > deadline) throw new Error(`the engine did not settle in time (last seen: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export interface AttemptSummary {
  /** Attempts made, and charges that needed more than one. */
  readonly attempts: number;
  readonly retriedCharges: number;
  /** Attempts settled by a status check (CheckStatus) rather than by their own reply. */
  readonly reconciledPaid: number;
  readonly reconciledNotFound: number;
  readonly markedUnknown: number;
  readonly heldForReview: number;
  /** Payments the gateway took late (found by a late check), and of them duplicates refunded. */
  readonly lateFound: number;
  readonly duplicates: number;
  readonly refunds: string;
}

export async function attemptSummary(sql: postgres.Sql): Promise<AttemptSummary> {
  const [row] = await sql<Record<string, string | null>[]>`
    select
      (select count(*) from charge_attempts) as attempts,
      (select count(*) from charges where attempt_count > 1) as retried,
      (select count(*) from events where actor = 'reconciler' and type = 'charge.succeeded') as reconciled_paid,
      (select count(*) from charge_attempts where decline_code = 'not_found') as not_found,
      (select count(*) from events where type = 'charge.attempt_unknown') as unknown,
      (select count(*) from charges where status = 'needs_review') as held,
      (select count(*) from events where type = 'charge.payment_found_late') as late_found,
      (select count(*) from charge_attempts where duplicate_at is not null) as duplicates,
      (select string_agg(status || ' ' || n, ', ' order by status)
        from (select status::text, count(*) as n from refunds group by status) r) as refunds`;
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    attempts: n("attempts"),
    retriedCharges: n("retried"),
    reconciledPaid: n("reconciled_paid"),
    reconciledNotFound: n("not_found"),
    markedUnknown: n("unknown"),
    heldForReview: n("held"),
    lateFound: n("late_found"),
    duplicates: n("duplicates"),
    refunds: row?.refunds ?? "none",
  };
}

/** Lines a process logged at error or fatal level (pino's 50 and 60), and the first of them. */
export function logErrors(file: string): { count: number; first: string | undefined } {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { count: 0, first: undefined };
  }
  const errors = text.split("\n").filter((line) => /"level":(50|60)\b/.test(line));
  const first = errors[0];
  const message = first ? /"msg":"([^"]*)"/.exec(first)?.[1] : undefined;
  return { count: errors.length, first: message ?? first?.slice(0, 200) };
}

/**
 * A host's sessions on PostgreSQL, by state ("8 idle, 1 idle in transaction for 41.2 s"): a
 * session of a cut host left inside a transaction keeps its row locks until PostgreSQL learns the
 * host is gone (TCP keepalive, idle_in_transaction_session_timeout) or the host comes back.
 */
export async function sessionsOf(sql: postgres.Sql, address: string): Promise<string> {
  const rows = await sql<{ state: string | null; n: number; oldest: number | null }[]>`
    select state, count(*)::int as n,
           max(extract(epoch from now() - xact_start))::float8 as oldest
    from pg_stat_activity where client_addr = ${address}::inet
    group by state order by state`;
  if (rows.length === 0) return "none";
  return rows
    .map((row) => {
      const inTransaction = row.state !== "idle" && row.oldest !== null;
      return `${row.n} ${row.state ?? "unknown"}${inTransaction ? ` (oldest transaction ${row.oldest!.toFixed(1)} s)` : ""}`;
    })
    .join(", ");
}

/**
 * Polls, as fast as PostgreSQL answers, until one of a host's sessions is inside a transaction;
 * returns what it was running ("idle in transaction: update charges c set status = …"), or null
 * when none was seen within `limitMs`.
 */
export async function transactionOf(
  sql: postgres.Sql,
  address: string,
  limitMs: number,
): Promise<string | null> {
  const limit = performance.now() + limitMs;
  while (performance.now() < limit) {
    const [row] = await sql<{ state: string; query: string }[]>`
      select state, query from pg_stat_activity
      where client_addr = ${address}::inet and xact_start is not null
      limit 1`;
    if (row) return `${row.state}: ${row.query.replace(/\s+/g, " ").trim().slice(0, 60)}…`;
  }
  return null;
}
