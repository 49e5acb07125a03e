import type { EngineContext } from "../context/index.js";
import { sweepUsage } from "../usage/index.js";

/**
 * Rule: the usage upkeep (usage/sweep.ts: the usage_events partitions of the coming months, and
 * pruning dedupe keys of closed periods) runs from the billing tick at most once an hour per
 * process and database handle, by the wall clock: it is idempotent and cheap, but needs doing
 * daily at most, not every tick. The hour is taken before it runs, so a failing sweep is retried an
 * hour later, not on every tick; its failure is logged and never stops the tick.
 */

const EVERY_MS = 60 * 60 * 1000;

/** When each database handle's sweep last started (wall clock, ms). */
const lastRun = new WeakMap<object, number>();

export async function sweepUsageHourly(ctx: Pick<EngineContext, "db" | "clock" | "config" | "logger">) {
  const now = Date.now();
  const last = lastRun.get(ctx.db);
  if (last !== undefined && now - last < EVERY_MS) return;
  lastRun.set(ctx.db, now);
  try {
    const swept = await sweepUsage(ctx);
    ctx.logger.debug({ component: "scheduler", ...swept }, "usage swept");
  } catch (err) {
    ctx.logger.warn({ err, component: "scheduler" }, "usage sweep failed; it runs again within the hour");
  }
}
