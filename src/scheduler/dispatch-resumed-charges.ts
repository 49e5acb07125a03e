import type { DateTime } from "luxon";
import type { PendingQuery, Row } from "postgres";
import { resumableOnNewCard } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import { cutoffOf, type Lease, stampAndHandOut } from "./hand-out.js";

/**
 * Rule: a debt is collected again as soon as the customer saves a new card. Charges that are
 * retrying or uncollectible, of a past_due or unpaid subscription whose current card works and has
 * not been tried on them yet (charging/resumable.ts: what the enrollment service announces as
 * `payment_method.replaced` with resume_collection), are handed to the queue (hand-out.ts), once
 * per lease; the charge job sees the same condition and collects at once. Found from rows, not from
 * the event, so a crash between the two cannot lose it.
 *
 * The scan starts from subscriptions in debt (the partial index subscriptions_in_debt_idx) and
 * their charges, so it costs what is owed, not the number of charges ever made.
 */
export async function dispatchResumedCharges(
  ctx: Pick<EngineContext, "db" | "queues" | "logger" | "config">,
  options: { now: DateTime; batchSize: number; lease: Lease },
): Promise<number> {
  const { batchSize, lease, now } = options;
  return stampAndHandOut(
    ctx,
    batchSize,
    (sql) => sql`
      select c.id ${resumable(sql, now, cutoffOf(sql, lease))}
      order by c.id
      limit ${batchSize}
      for update of c skip locked`,
  );
}

/** Charges to collect again on a new card, not handed out since the cutoff; work-probe.ts asks it too. */
export function resumable(sql: SqlRunner, now: DateTime, cutoff: PendingQuery<Row[]>): PendingQuery<Row[]> {
  return sql`
    from subscriptions s
    join charges c on c.subscription_id = s.id
    join payment_methods pm on pm.id = s.payment_method_id
    where s.status in ('past_due', 'unpaid') and c.status in ('retrying', 'uncollectible')
      and pm.deactivated_at is null and pm.unusable_at is null and pm.expires_at > ${now.toUTC().toISO()}::timestamptz
      and ${resumableOnNewCard(sql)}
      and (c.dispatched_at is null or c.dispatched_at < ${cutoff})`;
}
