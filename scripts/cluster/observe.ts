/**
 * What the cluster test reads from the database while it runs and after: paid charges, and how the
 * attempts the cut host left open were settled by the others. Whether the engine has settled is
 * the chaos suite's rule (chaos/settle.ts settledOn).
 */
import { readFileSync } from "node:fs";
import type postgres from "postgres";

export async function paidCount(sql: postgres.Sql): Promise<number> {
  const [row] = await sql<{ paid: string }[]>`select count(*) as paid from charges where status = 'paid'`;
  return Number(row?.paid ?? 0);
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
