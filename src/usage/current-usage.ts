import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { EngineContext } from "../context/index.js";
import { meters, subscriptions } from "../db/schema/index.js";
import { usageForPeriods } from "./aggregate.js";
import type { MeterAggregation } from "./meter-input.js";

/**
 * Rule: a subscription's usage so far is its current period's, per meter, as the period will be
 * added up (aggregate.ts); late events still arriving for the previous period are not in it. A
 * subscription without a current period has none. Null when there is no such subscription.
 */

export interface CurrentUsage {
  readonly subscriptionId: string;
  readonly period: { readonly start: Date; readonly end: Date } | null;
  /** Meters with events in the period only, by code. */
  readonly meters: readonly { code: string; aggregation: MeterAggregation; value: number }[];
}

export async function currentUsage(
  ctx: Pick<EngineContext, "db">,
  subscriptionId: string,
): Promise<CurrentUsage | null> {
  if (!z.uuid().safeParse(subscriptionId).success) return null;
  const [row] = await ctx.db
    .select({
      id: subscriptions.id,
      start: subscriptions.currentPeriodStart,
      end: subscriptions.currentPeriodEnd,
    })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  if (!row) return null;
  if (row.start === null || row.end === null) return { subscriptionId: row.id, period: null, meters: [] };
  const all = await usageForPeriods(ctx.db, [{ subscriptionId: row.id, start: row.start, end: row.end }]);
  const usage = all.get(row.id) ?? new Map<string, number>();
  const kinds =
    usage.size === 0
      ? []
      : await ctx.db
          .select({ code: meters.code, aggregation: meters.aggregation })
          .from(meters)
          .where(inArray(meters.code, [...usage.keys()]))
          .orderBy(meters.code);
  return {
    subscriptionId: row.id,
    period: { start: row.start, end: row.end },
    meters: kinds.map(({ code, aggregation }) => ({ code, aggregation, value: usage.get(code) ?? 0 })),
  };
}
