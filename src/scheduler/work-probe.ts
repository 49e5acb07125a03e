import type { PendingQuery, Row } from "postgres";
import type { SqlRunner } from "../db/index.js";

/**
 * Rule: a tick asks PostgreSQL one question before its sweeps run, in one round trip: for each
 * sweep, does any row match what it would select? A sweep answered "no" is skipped, so a tick with
 * nothing to do costs one statement rather than one or more per sweep. Each sweep exports the FROM
 * and WHERE of its own select (a `WorkSource`), which this asks about, so the question and the work
 * cannot drift apart. A sweep whose select runs in several parts gives one source per part.
 *
 * The answer is a snapshot: what appears after it is found by the next tick, as if this one had
 * run a moment earlier. The statement also dates the queue's lease on PostgreSQL's clock
 * (hand-out.ts), which the charge sweeps' sources compare with, so it takes no round trip of its own.
 */

/**
 * `from … where …` of a sweep's select, without order, limit, paging or locks, and the ORDER BY that
 * select uses. The question asks for the first row in that order, not `exists`: PostgreSQL drops
 * the order inside EXISTS and plans for the first match, so with statistics that still count rows
 * due an hour ago it scans a whole table (subscriptions: 158 ms at a million) for a row that is no
 * longer there. Ordered, it plans the question as it plans the sweep: by the sweep's index. A
 * source over a small table may leave the order out.
 */
export interface WorkSource {
  readonly rows: PendingQuery<Row[]>;
  readonly order?: PendingQuery<Row[]>;
}

export interface WorkAnswer<K extends string> {
  /** Whether each sweep may have work. */
  readonly has: Readonly<Record<K, boolean>>;
  /** `cutoff` evaluated, as PostgreSQL's timestamptz text (Lease.cutoff). */
  readonly cutoff: string;
}

export async function askForWork<K extends string>(
  sql: SqlRunner,
  questions: Readonly<Record<K, readonly WorkSource[]>>,
  cutoff: PendingQuery<Row[]>,
): Promise<WorkAnswer<K>> {
  const keys = Object.keys(questions) as K[];
  const answers = keys
    .map((key) =>
      questions[key]
        .map(({ rows, order }) =>
          order
            ? sql`coalesce((select true ${rows} ${order} limit 1), false)`
            : sql`exists (select 1 ${rows})`,
        )
        .reduce((either, next) => sql`${either} or ${next}`),
    )
    .reduce((list, next) => sql`${list}, ${next}`);
  const [row] = await sql<{ cutoff: string; has: boolean[] }[]>`
    select (${cutoff})::text as cutoff, array[${answers}] as has`;
  const has = Object.fromEntries(keys.map((key, i) => [key, row!.has[i] === true])) as Record<K, boolean>;
  return { has, cutoff: row!.cutoff };
}
