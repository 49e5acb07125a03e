import type { DateTime } from "luxon";
import type { Sql } from "postgres";
import { pgInstant } from "../db/index.js";
import { type QueueDepth, type QueueSystem, queueDepths } from "../queue/index.js";
import { lastTickRun, type TickRun } from "../scheduler/index.js";

/**
 * Is work flowing: each queue's depth, how late the oldest due charge is (billing clock now minus
 * the earliest next_attempt_at that is due, from charges_due_idx: a growing lag means charges are
 * due and nobody collects them), and the billing tick's last run.
 */

export interface QueueHealth {
  queues: QueueDepth[];
  /** Seconds the oldest due charge has waited; 0 when none is due. */
  oldestDueLagSeconds: number;
  dueCharges: number;
  tick: TickRun | null;
}

export async function queueHealth(
  sql: Sql,
  queues: Pick<QueueSystem, "queue">,
  now: DateTime,
): Promise<QueueHealth> {
  const at = now.toUTC().toISO();
  const [depths, [due], tick] = await Promise.all([
    queueDepths(queues),
    sql<{ oldest: string | null; n: string }[]>`
      select min(next_attempt_at)::text as oldest, count(*)::text as n
      from charges
      where status in ('scheduled', 'retrying') and next_attempt_at is not null
        and next_attempt_at <= ${at}::timestamptz`,
    lastTickRun(sql),
  ]);
  const lag = due?.oldest ? Math.max(0, Math.floor(now.diff(pgInstant(due.oldest), "seconds").seconds)) : 0;
  return { queues: depths, oldestDueLagSeconds: lag, dueCharges: Number(due?.n ?? 0), tick };
}
