import type { DateTime } from "luxon";
import { lessBilled, priceUsage, subtotalOf } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import type { SqlTx } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import {
  billedParts,
  insertUsageCharges,
  lockWatchedPeriods,
  type PricedPeriod,
  pricesForPeriod,
  thresholdPlanIds,
  usageOfPeriods,
  usagePricesOfPlans,
} from "../usage-billing/index.js";
import { handOut } from "./hand-out.js";

/**
 * Rule: spending thresholds (progressive billing). While a watched period is open
 * (usage-billing/open-periods.ts), the usage it recorded so far that no earlier part billed is
 * priced (the prices set by now that may be billed in parts: billing/usage-parts.ts); once that
 * reaches the plan's usage_threshold_minor, it is charged at once as the period's next part
 * (usage_part n + 1), collected like any usage charge, so no single charge grows past what a card
 * issuer approves. The close (bill-usage.ts) then bills the rest. A period whose usage cannot be
 * priced is logged and left to the close; any other failure rolls its batch back, is logged, and
 * the next tick tries again.
 */

export interface ThresholdCounts {
  partsCreated: number;
  partsDispatched: number;
}

type Ctx = Pick<EngineContext, "db" | "queues" | "logger" | "config">;

export async function billUsageThresholds(
  ctx: Ctx,
  options: { now: DateTime; batchSize: number },
): Promise<ThresholdCounts> {
  const counts: ThresholdCounts = { partsCreated: 0, partsDispatched: 0 };
  const planIds = await thresholdPlanIds(ctx.db.$client);
  if (planIds.length === 0) return counts;
  let after: string | undefined;
  try {
    for (;;) {
      const batch = await ctx.db.$client.begin((tx) => billBatch(tx, ctx, planIds, options, after));
      counts.partsCreated += batch.created;
      counts.partsDispatched += await handOut(ctx, batch.toCollect);
      if (batch.rows < options.batchSize || !batch.after) break;
      after = batch.after;
    }
  } catch (err) {
    ctx.logger.error({ err, component: "scheduler" }, "usage thresholds failed; the next tick tries again");
  }
  if (counts.partsCreated > 0)
    ctx.logger.info({ component: "scheduler", ...counts }, "usage billed in parts");
  return counts;
}

async function billBatch(
  tx: SqlTx,
  ctx: Ctx,
  planIds: readonly string[],
  options: { now: DateTime; batchSize: number },
  after: string | undefined,
) {
  const periods = await lockWatchedPeriods(tx, planIds, { ...options, after });
  const [prices, usage, billed] = await Promise.all([
    usagePricesOfPlans(tx, [...new Set(periods.map((period) => period.planId))]),
    usageOfPeriods(tx, periods),
    billedParts(tx, periods),
  ]);
  const priced = periods.flatMap((period, i): PricedPeriod[] => {
    const inParts = pricesForPeriod(prices.get(period.planId) ?? [], options.now).filter(
      (price) => price.billableInParts,
    );
    try {
      const before = billed(period);
      const lines = lessBilled(priceUsage(inParts, usage[i]!), before.byMeter).filter(
        (line) => line.quantity > 0 || line.amountMinor > 0,
      );
      const totalMinor = subtotalOf(lines);
      if (totalMinor < period.thresholdMinor) return [];
      return [{ period, lines, totalMinor, usagePart: before.lastPart + 1 }];
    } catch (err) {
      ctx.logger.error(
        { err, subscriptionId: period.subscriptionId, periodStart: period.start.toISO() },
        "cannot price this period's usage so far; left to the period's close",
      );
      return [];
    }
  });
  const created = await insertUsageCharges(tx, priced, options.now);
  await recordEvents(tx, created.events);
  return {
    rows: periods.length,
    after: periods.at(-1)?.subscriptionId,
    created: created.created,
    toCollect: created.toCollect,
  };
}
