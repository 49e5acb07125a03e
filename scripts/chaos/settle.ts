/**
 * Waiting, always on an observed condition with a deadline, never on a fixed sleep.
 *
 * "Settled" means: no charge is processing, none is due and waiting to be handed out (unless the
 * circuit breaker is open, which holds them on purpose), every subscription due has been billed,
 * no refund is in flight, the scenario's own condition holds (`done`), and nothing in the
 * database has changed for STABLE_MS. The ticks run by themselves (the scheduler process).
 */
import type postgres from "postgres";
import type { Harness } from "./harness.js";

const POLL_MS = 250;
/** How long nothing may change before a quiet world counts as settled (a few ticks). */
const STABLE_MS = 3_000;

export class DeadlineError extends Error {}

/** Polls `condition` until it holds; throws DeadlineError naming `what` at `deadline` (performance.now()). */
export async function waitFor(
  what: string,
  deadline: number,
  condition: () => Promise<boolean>,
): Promise<void> {
  for (;;) {
    if (await condition()) return;
    if (performance.now() > deadline) throw new DeadlineError(`deadline passed waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

interface Snapshot {
  readonly quiet: boolean;
  readonly signature: string;
}

async function snapshot(sql: postgres.Sql): Promise<Snapshot> {
  const [row] = await sql<{ quiet: boolean; signature: string }[]>`
    with paused as (
      select exists (select 1 from gateway_breaker
        where id = 1 and opened_at is not null and closed_at is null) as open)
    select
      (not exists (select 1 from charges where status = 'processing')
        and ((select open from paused) or not exists (select 1 from charges
          where status in ('scheduled', 'retrying') and next_attempt_at <= now()))
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
        (select count(*) from charge_attempts where duplicate_at is not null),
        (select open from paused)) as signature`;
  return { quiet: row?.quiet === true, signature: row?.signature ?? "" };
}

/**
 * Waits until the world is settled; returns the moment (performance.now()) from which nothing
 * changed any more, or throws DeadlineError.
 * `done` is the scenario's own condition (e.g. every late payment found and refunded).
 */
export function settle(
  h: Harness,
  deadline: number,
  done: () => Promise<boolean> = async () => true,
): Promise<number> {
  return settledOn(h.sql, deadline, { stableMs: STABLE_MS, done });
}

/** As settle, on any database (the cluster test's), quiet for `stableMs`. */
export async function settledOn(
  sql: postgres.Sql,
  deadline: number,
  options: { stableMs: number; done?: () => Promise<boolean> },
): Promise<number> {
  const { stableMs, done = async () => true } = options;
  let last = "";
  let stableSince = performance.now();
  await waitFor("the engine to settle", deadline, async () => {
    const now = performance.now();
    const { quiet, signature } = await snapshot(sql);
    if (signature !== last || !quiet) {
      last = signature;
      stableSince = now;
      return false;
    }
    return now - stableSince >= stableMs && (await done());
  });
  return stableSince;
}
