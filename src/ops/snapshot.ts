import type { DateTime } from "luxon";
import { type BreakerState, breakerState } from "../breaker/index.js";
import type { EngineContext } from "../context/index.js";
import { type Attention, attention } from "./attention.js";
import { type Collections, collections } from "./collections.js";
import { type DunningFunnel, dunningFunnel } from "./dunning-funnel.js";
import { type PaymentLinkOverview, paymentLinkFigures, paymentLinkOverview } from "./payment-links.js";
import { type QueueHealth, queueHealth } from "./queue-health.js";
import type { OpsRange } from "./range.js";
import { type SubscriptionOverview, subscriptionOverview } from "./subscriptions.js";
import { type Upcoming, upcoming } from "./upcoming.js";
import { type UsageRevenue, usageRevenue } from "./usage-revenue.js";

/**
 * Everything the ops dashboard shows, read in one go. The aggregates over a range (collections,
 * funnel, subscriptions, usage revenue, upcoming, payment links) are kept per process for
 * OPS_CACHE_SECONDS per range and currency, so a dashboard left open, or ten operators, cost one set
 * of queries per interval; what an operator acts on (attention, queues, breaker) is read fresh
 * every time.
 */

export interface OpsSnapshot {
  now: string;
  range: { from: string; to: string; unit: OpsRange["unit"]; timezone: string };
  currency: string;
  currencies: string[];
  collections: Collections;
  funnel: DunningFunnel;
  subscriptions: SubscriptionOverview;
  /** Usage charges paid in the range, every currency: the usage part of Collected, never in MRR. */
  usageRevenue: UsageRevenue;
  upcoming: Upcoming;
  /** Collected by card and by link, the link funnel, and what waits on a customer. */
  paymentLinks: PaymentLinkOverview;
  attention: Attention;
  queue: QueueHealth;
  breaker: BreakerState;
  /** When the cached aggregates were read. */
  aggregatesAt: string;
}

interface Aggregates {
  collections: Collections;
  funnel: DunningFunnel;
  subscriptions: SubscriptionOverview;
  usageRevenue: UsageRevenue;
  upcoming: Upcoming;
  paymentLinks: PaymentLinkOverview;
  at: DateTime;
  expires: number;
}

type OpsContext = Pick<EngineContext, "db" | "queues" | "clock" | "config">;

export interface OpsReader {
  read(range: OpsRange, currency?: string): Promise<OpsSnapshot>;
}

/** The plans' currencies, most subscribed first; the engine's default when there is no plan. */
async function currenciesOf(ctx: OpsContext): Promise<string[]> {
  const rows = await ctx.db.$client<{ currency: string }[]>`
    select p.currency from plans p group by p.currency order by count(*) desc, p.currency`;
  return rows.length > 0 ? rows.map((r) => r.currency) : ["QAR"];
}

export function opsReader(ctx: OpsContext): OpsReader {
  const cache = new Map<string, Aggregates>();
  const sql = ctx.db.$client;

  async function aggregates(range: OpsRange, currency: string, now: DateTime): Promise<Aggregates> {
    const key = `${range.from.toISO()}|${range.to.toISO()}|${currency}`;
    const hit = cache.get(key);
    if (hit && hit.expires > Date.now()) return hit;
    const [c, f, s, r, u, l] = await Promise.all([
      collections(sql, range, currency, now),
      dunningFunnel(sql, range, currency),
      subscriptionOverview(sql, range),
      usageRevenue(sql, range),
      upcoming(sql, now),
      paymentLinkFigures(sql, range, currency),
    ]);
    const fresh = {
      collections: c,
      funnel: f,
      subscriptions: s,
      usageRevenue: r,
      upcoming: u,
      paymentLinks: paymentLinkOverview(c.totals.paid, l),
      at: now,
      expires: Date.now() + ctx.config.OPS_CACHE_SECONDS * 1000,
    };
    for (const [k, v] of cache) if (v.expires <= Date.now()) cache.delete(k);
    if (ctx.config.OPS_CACHE_SECONDS > 0) cache.set(key, fresh);
    return fresh;
  }

  return {
    async read(range, requested) {
      const now = ctx.clock.now();
      const currencies = await currenciesOf(ctx);
      const currency = requested && currencies.includes(requested) ? requested : (currencies[0] ?? "QAR");
      const [agg, att, queue, breaker] = await Promise.all([
        aggregates(range, currency, now),
        attention(sql),
        queueHealth(sql, ctx.queues, now),
        breakerState(sql),
      ]);
      return {
        now: now.toISO() ?? "",
        range: {
          from: range.from.toISO() ?? "",
          to: range.to.toISO() ?? "",
          unit: range.unit,
          timezone: range.timezone,
        },
        currency,
        currencies,
        collections: agg.collections,
        funnel: agg.funnel,
        subscriptions: agg.subscriptions,
        usageRevenue: agg.usageRevenue,
        upcoming: agg.upcoming,
        paymentLinks: agg.paymentLinks,
        attention: att,
        queue,
        breaker,
        aggregatesAt: agg.at.toISO() ?? "",
      };
    },
  };
}
