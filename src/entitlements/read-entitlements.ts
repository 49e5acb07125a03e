import type { EngineContext } from "../context/index.js";
import { cachedEntitlements, keepEntitlements } from "./cache.js";
import { type CustomerEntitlements, customersById, loadEntitlements } from "./load-entitlements.js";
import { policyOf } from "./settings.js";

/**
 * Rule: a customer's entitlements come from this process's cache while it holds them (cache.ts),
 * else they are loaded at the billing clock's now and kept. null when there is no such customer.
 */
export async function customerEntitlements(
  ctx: Pick<EngineContext, "db" | "clock" | "config">,
  customerId: string,
): Promise<CustomerEntitlements | null> {
  const ttlSeconds = ctx.config.ENTITLEMENTS_CACHE_SECONDS;
  if (ttlSeconds > 0) {
    const hit = cachedEntitlements(customerId, () => ctx.clock.now().toMillis());
    if (hit) return hit;
  }
  const started = performance.now();
  const sql = ctx.db.$client;
  const loaded = await loadEntitlements(
    sql,
    customersById(sql, [customerId]),
    ctx.clock.now(),
    policyOf(ctx.config),
  );
  const value = loaded.get(customerId) ?? null;
  if (value) keepEntitlements(value, started, ttlSeconds);
  return value;
}
