import type { EngineContext } from "../context/index.js";
import { ensureUsagePartitions } from "./partitions.js";

/**
 * Rule, the periodic upkeep of usage (for a scheduler to run, e.g. daily; idempotent):
 * - the partitions of the previous month to MONTHS_AHEAD months ahead exist (billing clock);
 * - dedupe keys of events whose period is closed are deleted: such an event's retry, whatever its
 *   id, would be refused as late, so its key guards nothing any more. Closed means the event is
 *   before its subscription's current period, and the grace after that period's start has passed.
 *   A retry that changes its timestamp into an open period after that is not recognised: merchants
 *   retry with the event's own timestamp (docs/usage.md).
 * Deletes go in batches of PRUNE_BATCH, so the sweep never holds many locks at once.
 */

const MONTHS_AHEAD = 3;
const PRUNE_BATCH = 10_000;

export async function pruneUsageKeys(ctx: Pick<EngineContext, "db" | "clock" | "config">): Promise<number> {
  const now = ctx.clock.now().toUTC().toISO();
  const grace = ctx.config.USAGE_GRACE_HOURS;
  let pruned = 0;
  for (;;) {
    const deleted = await ctx.db.$client`
      delete from usage_event_keys k
      where (k.subscription_id, k.event_id) in (
        select k2.subscription_id, k2.event_id
        from usage_event_keys k2 join subscriptions s on s.id = k2.subscription_id
        where k2.occurred_at < s.current_period_start
          and ${now}::timestamptz >= s.current_period_start + make_interval(hours => ${grace}::int)
        limit ${PRUNE_BATCH}
      )`;
    pruned += deleted.count;
    if (deleted.count < PRUNE_BATCH) return pruned;
  }
}

export async function sweepUsage(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
): Promise<{ partitionsCreated: number; keysPruned: number }> {
  const from = ctx.clock.now().toUTC().minus({ months: 1 });
  const partitionsCreated = await ensureUsagePartitions(ctx.db.$client, from, MONTHS_AHEAD + 2);
  const keysPruned = await pruneUsageKeys(ctx);
  return { partitionsCreated, keysPruned };
}
