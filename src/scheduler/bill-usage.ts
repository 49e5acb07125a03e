import type { DateTime } from "luxon";
import { lessBilled, priceUsage, subtotalOf } from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import type { SqlTx } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import {
  billedParts,
  type DueCursor,
  type DuePeriod,
  insertUsageCharges,
  lockDuePeriods,
  type PricedPeriod,
  pricesForPeriod,
  type ScanWindow,
  scanWindow,
  usageOfPeriods,
  usagePlans,
  usagePricesOfPlans,
} from "../usage-billing/index.js";
import { handOut } from "./hand-out.js";

/**
 * Rule: the usage of a period is charged once, after the period closed. Every period charge of a
 * plan that prices usage, whose period ended USAGE_GRACE_HOURS ago and which has no usage charge
 * yet, gets one (usage-billing/due-periods.ts finds and locks them, batch by batch), priced from the
 * period's aggregated usage [period_start, period_end) by priceUsage, one line per price of the
 * plan set before the period ended, less what the period's parts billed before it closed
 * (bill-usage-thresholds.ts; billing/usage-parts.ts). A charge at zero is paid at once; any other is handed to the
 * charge queue once its batch has committed, as renewals are. A subscription charged through a
 * recurring card token is skipped, and logged once per tick: the gateway charges such a token a
 * fixed amount. A period whose usage cannot be priced (a value past what a charge line holds) is
 * logged and left unbilled; the rest of its batch is billed. Any other failure rolls its batch back
 * and is logged: usage billing never stops the rest of the tick (dispatching, reconciling).
 */

export interface UsageBillingCounts {
  chargesCreated: number;
  chargesDispatched: number;
  /** Periods left unbilled because the subscription pays with a recurring card token. */
  skippedRecurring: number;
}

type Ctx = Pick<EngineContext, "db" | "queues" | "logger" | "config">;

export async function billUsage(
  ctx: Ctx,
  options: { now: DateTime; batchSize: number },
): Promise<UsageBillingCounts> {
  const counts: UsageBillingCounts = { chargesCreated: 0, chargesDispatched: 0, skippedRecurring: 0 };
  const plans = await usagePlans(ctx.db.$client);
  if (plans.length === 0) return counts;
  const window = scanWindow(plans, options.now, ctx.config.USAGE_GRACE_HOURS);
  const skipped: string[] = [];
  let after: DueCursor | undefined;
  try {
    for (;;) {
      const batch = await ctx.db.$client.begin((tx) => billBatch(tx, ctx, window, options, after));
      counts.chargesCreated += batch.created;
      counts.chargesDispatched += await handOut(ctx, batch.toCollect);
      skipped.push(...batch.skipped);
      if (batch.rows < options.batchSize || !batch.cursor) break;
      after = batch.cursor;
    }
  } catch (err) {
    // The batch rolled back and the next tick tries again; the rest of this tick goes on.
    ctx.logger.error({ err, component: "scheduler" }, "usage billing failed; the next tick tries again");
  }
  counts.skippedRecurring = skipped.length;
  if (skipped.length > 0) {
    ctx.logger.warn(
      { component: "scheduler", periods: skipped.length, subscriptions: [...new Set(skipped)].slice(0, 20) },
      "usage not billed: these subscriptions pay with a recurring card token, which is charged a fixed amount",
    );
  }
  if (counts.chargesCreated > 0) ctx.logger.info({ component: "scheduler", ...counts }, "usage billed");
  return counts;
}

async function billBatch(
  tx: SqlTx,
  ctx: Ctx,
  window: ScanWindow,
  options: { now: DateTime; batchSize: number },
  after: DueCursor | undefined,
) {
  const { periods, cursor } = await lockDuePeriods(tx, window, { batchSize: options.batchSize, after });
  const billable = periods.filter((period) => !period.recurringToken);
  const [prices, usage, billed] = await Promise.all([
    usagePricesOfPlans(tx, [...new Set(billable.map((period) => period.planId))]),
    usageOfPeriods(
      tx,
      billable.map((period) => ({
        subscriptionId: period.subscriptionId,
        start: period.start,
        end: period.end,
      })),
    ),
    billedParts(tx, billable),
  ]);
  const priced = billable.flatMap((period, i): PricedPeriod[] => {
    try {
      const whole = priceUsage(pricesForPeriod(prices.get(period.planId) ?? [], period.end), usage[i]!);
      const lines = lessBilled(whole, billed(period).byMeter);
      return [{ period, lines, totalMinor: subtotalOf(lines), usagePart: null }];
    } catch (err) {
      // One period that cannot be priced must not stop the others' billing.
      ctx.logger.error(
        { err, subscriptionId: period.subscriptionId, periodStart: period.start.toISO() },
        "cannot price this period's usage; left unbilled",
      );
      return [];
    }
  });
  const created = await insertUsageCharges(tx, priced, options.now);
  await recordEvents(tx, created.events);
  return {
    rows: periods.length,
    cursor,
    created: created.created,
    toCollect: created.toCollect,
    skipped: periods.filter((period) => period.recurringToken).map(subscriptionOf),
  };
}

const subscriptionOf = (period: DuePeriod) => period.subscriptionId;
