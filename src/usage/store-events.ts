import type { Sql } from "../db/index.js";
import { pgError, SqlState } from "../db/index.js";
import type { CandidateEvent } from "./judge-events.js";
import { ensureMonthsOf, forgetPartitions } from "./partitions.js";

/**
 * Rule: a request's events are written by ONE statement, without a transaction of their own: the
 * keys go into usage_event_keys with `on conflict do nothing`, and exactly the events whose key
 * was new go into usage_events, so a duplicate (same subscription and id, whatever its timestamp)
 * is never stored twice, even when two requests carry it at once (the second waits for the first's
 * key and then skips it). Keys are inserted in key order, so two batches overlapping in different
 * orders cannot deadlock. Returns the positions (CandidateEvent.index) of the events stored.
 */

export async function storeEvents(
  sql: Sql,
  candidates: readonly CandidateEvent[],
  receivedAt: number,
): Promise<Set<number>> {
  if (candidates.length === 0) return new Set();
  const instants = candidates.map((c) => c.occurredAt);
  await ensureMonthsOf(sql, instants);
  let fresh: { subscription_id: string; event_id: string }[];
  try {
    fresh = await insert(sql, candidates, receivedAt);
  } catch (error) {
    if (!isMissingPartition(error)) throw error;
    // A month this process thought made was dropped since: make it again, once.
    forgetPartitions(sql);
    await ensureMonthsOf(sql, instants);
    fresh = await insert(sql, candidates, receivedAt);
  }
  const positions = new Map(candidates.map((c) => [`${c.subscriptionId}\u0000${c.eventId}`, c.index]));
  return new Set(fresh.map((row) => positions.get(`${row.subscription_id}\u0000${row.event_id}`)!));
}

/** "no partition of relation … found for row" (23514, as a check violation). */
function isMissingPartition(error: unknown): boolean {
  const pg = pgError(error);
  return pg?.code === SqlState.checkViolation && pg.message.includes("no partition");
}

function insert(sql: Sql, candidates: readonly CandidateEvent[], receivedAt: number) {
  const received = new Date(receivedAt).toISOString();
  return sql<{ subscription_id: string; event_id: string }[]>`
    with input as (
      select * from unnest(
        ${candidates.map((c) => c.subscriptionId)}::uuid[], ${candidates.map((c) => c.meterId)}::uuid[],
        ${candidates.map((c) => c.eventId)}::text[], ${candidates.map((c) => String(c.quantity))}::text[]::bigint[],
        ${candidates.map((c) => c.distinctValue)}::text[],
        ${candidates.map((c) => new Date(c.occurredAt).toISOString())}::text[]::timestamptz[]
      ) as i(subscription_id, meter_id, event_id, quantity, distinct_value, occurred_at)
    ), fresh as (
      insert into usage_event_keys (subscription_id, event_id, occurred_at, received_at)
      select subscription_id, event_id, occurred_at, ${received}::timestamptz from input
      order by subscription_id, event_id
      on conflict do nothing
      returning subscription_id, event_id
    ), stored as (
      insert into usage_events (subscription_id, meter_id, event_id, quantity, distinct_value, occurred_at, received_at)
      select i.subscription_id, i.meter_id, i.event_id, i.quantity, i.distinct_value, i.occurred_at, ${received}::timestamptz
      from input i join fresh f on f.subscription_id = i.subscription_id and f.event_id = i.event_id
    )
    select subscription_id::text as subscription_id, event_id from fresh`;
}
