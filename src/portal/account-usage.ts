import { DateTime } from "luxon";
import {
  amountFixedByToken,
  type BillingMode,
  byMeterCode,
  type CollectionMethod,
} from "../billing/index.js";
import type { EngineContext } from "../context/index.js";
import type { SqlRunner } from "../db/index.js";
import {
  pricesForPeriod,
  type UsagePreview,
  usageOfPeriods,
  usagePreview,
  usagePricesOfPlans,
} from "../usage-billing/index.js";

/**
 * Rule: a subscription's usage so far in its current period, per meter its usage plan prices (by
 * code, 0 when nothing was recorded, as the usage charge lists them). Its usage plan is the plan of
 * its current period charge when that prices usage (after a plan change it may not be the current
 * plan, and usage-billing/due-periods.ts bills it), else its current plan when that does (a trial
 * has no period charge). No usage plan, a canceled subscription or no current period: none shown.
 * Amounts are the usage preview's (usage-billing/usage-preview.ts, what GET
 * /v1/subscriptions/:id/upcoming shows), given only when the tick will charge the period's usage:
 * not when the subscription ends at its period's end or pays through a recurring card token
 * (docs/usage.md, "Left out"), nor when the preview has no period charge or cannot price it.
 * Otherwise the values alone.
 * Cost: two queries for all of a customer's subscriptions, then the preview's for each one charged.
 */

export interface UsageMeter {
  readonly name: string;
  readonly value: number;
}

export type AccountUsage =
  | { readonly priced: false; readonly meters: readonly UsageMeter[] }
  | {
      readonly priced: true;
      readonly meters: readonly (UsageMeter & { readonly amountMinor: number })[];
      readonly totalMinor: number;
      readonly currency: string;
    };

/** What this reads of an account's subscription. */
export interface UsageSubscription {
  readonly id: string;
  readonly planId: string;
  readonly status: string;
  readonly currentPeriodStart: Date | null;
  readonly currentPeriodEnd: Date | null;
  readonly cancelAtPeriodEnd: boolean;
  readonly collectionMethod: CollectionMethod;
  readonly cardKind: "recurring" | "autosave" | null;
}

type Open = UsageSubscription & { readonly currentPeriodStart: Date; readonly currentPeriodEnd: Date };

interface PeriodFacts {
  /** The plan of the current period's charge; null before there is one. */
  readonly periodPlanId: string | null;
  readonly billingMode: BillingMode;
}

export async function accountUsage(
  ctx: Pick<EngineContext, "db" | "config">,
  subscriptions: readonly UsageSubscription[],
): Promise<Map<string, AccountUsage>> {
  const sql = ctx.db.$client;
  const open = subscriptions.filter(
    (sub): sub is Open =>
      sub.status !== "canceled" && sub.currentPeriodStart !== null && sub.currentPeriodEnd !== null,
  );
  const shown = new Map<string, AccountUsage>();
  if (open.length === 0) return shown;
  const facts = await periodFacts(
    sql,
    open.map((sub) => sub.id),
  );
  const planIds = open.flatMap((sub) => [sub.planId, facts.get(sub.id)?.periodPlanId ?? sub.planId]);
  const prices = await usagePricesOfPlans(sql, [...new Set(planIds)]);
  const metered = open.flatMap((sub) => {
    const fact = facts.get(sub.id);
    // The plan that bills the period's usage: its period charge's, else the current one's.
    const usagePrices = fact && (prices.get(fact.periodPlanId ?? "") ?? prices.get(sub.planId));
    return fact && usagePrices ? [{ sub, fact, prices: usagePrices }] : [];
  });
  const previews = await Promise.all(
    metered.map(({ sub, fact }) =>
      charged(sub, fact) ? priceablePreview(sql, sub.id, ctx.config.USAGE_GRACE_HOURS) : null,
    ),
  );
  const unpriced = metered.filter((_, i) => previews[i] === null);
  const values = await usageOfPeriods(
    sql,
    unpriced.map(({ sub }) => ({
      subscriptionId: sub.id,
      start: sub.currentPeriodStart,
      end: sub.currentPeriodEnd,
    })),
  );
  const valuesOf = new Map(unpriced.map(({ sub }, i) => [sub.id, values[i] ?? new Map<string, number>()]));
  for (const [i, { sub, prices }] of metered.entries()) {
    const preview = previews[i];
    if (preview) {
      shown.set(sub.id, pricedUsage(preview));
      continue;
    }
    const usage = valuesOf.get(sub.id);
    const meters = pricesForPeriod(prices, DateTime.fromJSDate(sub.currentPeriodEnd))
      .sort(byMeterCode)
      .map((price) => ({ name: price.meterName, value: usage?.get(price.meterCode) ?? 0 }));
    if (meters.length > 0) shown.set(sub.id, { priced: false, meters });
  }
  return shown;
}

/** Whether the tick will charge this period's usage (usage-billing/due-periods.ts leaves these out). */
function charged(sub: Open, fact: PeriodFacts): boolean {
  return !sub.cancelAtPeriodEnd && !amountFixedByToken({ ...sub, planBillingMode: fact.billingMode });
}

/** Each subscription's current period charge's plan, and its plan's billing mode. */
async function periodFacts(sql: SqlRunner, ids: readonly string[]): Promise<Map<string, PeriodFacts>> {
  const rows = await sql<{ id: string; period_plan_id: string | null; billing_mode: BillingMode }[]>`
    select s.id, c.plan_id as period_plan_id, p.billing_mode
    from subscriptions s
    join plans p on p.id = s.plan_id
    left join charges c on c.subscription_id = s.id and c.kind = 'period' and c.period_start = s.current_period_start
    where s.id = any(${[...ids]}::uuid[])`;
  return new Map(
    rows.map((row) => [row.id, { periodPlanId: row.period_plan_id, billingMode: row.billing_mode }]),
  );
}

/**
 * The preview, or null when it cannot price the usage (a value past what a charge line holds, a
 * price past 2^53-1): the tick leaves such a period unbilled, and the page still shows the values.
 */
async function priceablePreview(
  sql: SqlRunner,
  id: string,
  graceHours: number,
): Promise<UsagePreview | null> {
  try {
    return await usagePreview(sql, id, graceHours);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

function pricedUsage(preview: UsagePreview): AccountUsage {
  return {
    priced: true,
    meters: preview.lines.map((line) => ({
      name: line.description,
      value: line.quantity,
      amountMinor: line.amountMinor,
    })),
    totalMinor: preview.totalMinor,
    currency: preview.currency,
  };
}
