import type { EngineContext } from "../context/index.js";
import type { UsageEventInput } from "./event-input.js";
import { judgeEvents, type UsageVerdict } from "./judge-events.js";
import { loadSubscriptions } from "./load-subscriptions.js";
import { metersByCode } from "./meter-cache.js";
import { storeEvents } from "./store-events.js";

/**
 * Rule: ingesting a request of usage events costs one query for its subscriptions and one
 * statement for its writes, whatever the number of events (meters come from the process cache);
 * there is no transaction per event, nor one around the two. Each event is answered in request
 * order: accepted (stored now), duplicate (its id was already recorded for that subscription, or
 * came earlier in the request), or refused with a code, a reason and the field at fault.
 * Events are expected parsed by usageEventSchema (the API's validation does it).
 */

export type UsageResult = UsageVerdict & { readonly id: string };

export async function ingestUsage(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
  events: readonly UsageEventInput[],
): Promise<UsageResult[]> {
  const sql = ctx.db.$client;
  const now = ctx.clock.now().toMillis();
  const codes = new Set<string>();
  const subscriptionIds = new Set<string>();
  const customerIds = new Set<string>();
  for (const event of events) {
    codes.add(event.meter);
    if (event.subscription_id !== undefined) subscriptionIds.add(event.subscription_id);
    if (event.customer_id !== undefined) customerIds.add(event.customer_id);
  }
  const [meters, subscriptions] = await Promise.all([
    metersByCode(ctx.db, codes),
    loadSubscriptions(sql, [...subscriptionIds], [...customerIds]),
  ]);
  const { verdicts, candidates } = judgeEvents(
    events,
    meters,
    subscriptions,
    now,
    ctx.config.USAGE_GRACE_HOURS,
  );
  const stored = await storeEvents(sql, candidates, now);
  for (const candidate of candidates) {
    if (!stored.has(candidate.index)) verdicts[candidate.index] = { status: "duplicate" };
  }
  return verdicts.map((verdict, index) => ({ id: events[index]!.id, ...verdict }));
}
