import { createHash } from "node:crypto";
import type { EngineContext } from "../context/index.js";
import { createGatewayBudget, createPostgresGatewayBudget } from "../queue/index.js";
import { createGatewayLimiter, type GatewayLimiter } from "./gateway-limiter.js";
import { withSharedBudget } from "./shared-limiter.js";
import { DEFAULT_RECOVER_MS } from "./throttle.js";

/**
 * Rule: a charge worker process paces its gateway calls with its own limiter (CHARGE_MAX_IN_FLIGHT,
 * CHARGE_RATE_PER_SECOND) and, when the deployment has a contract with the gateway
 * (GATEWAY_RATE_PER_SECOND, GATEWAY_MAX_IN_FLIGHT), with the budget all processes share.
 * The budget is keyed by a digest of the merchant's API key (the key itself never leaves the
 * process). Without Redis (queues on PostgreSQL) the budget is kept in PostgreSQL by the same rules.
 * A process's in-flight count outlives its last call by twice the gateway timeout, after which a
 * process that died frees its share.
 */
/** A tenth of a second's worth may go out at once: waves large enough to claim together. */
const BURST_MS = 100;

export function processLimiter(
  ctx: Pick<EngineContext, "config" | "logger" | "db">,
  limits: { maxInFlight: number; ratePerSecond: number },
): { limiter: GatewayLimiter; close: () => Promise<void> } {
  const local = createGatewayLimiter(limits);
  const { config } = ctx;
  const shared = config.GATEWAY_RATE_PER_SECOND ?? config.GATEWAY_MAX_IN_FLIGHT;
  if (shared === undefined) return { limiter: local, close: async () => undefined };
  const account = createHash("sha256")
    .update(config.GATEWAY_API_KEY ?? "default")
    .digest("hex")
    .slice(0, 16);
  const budgetLimits = {
    ratePerSecond: config.GATEWAY_RATE_PER_SECOND ?? null,
    maxInFlight: config.GATEWAY_MAX_IN_FLIGHT ?? null,
    windowMs: config.GATEWAY_RATE_WINDOW_MS,
    leaseMs: 2 * config.GATEWAY_TIMEOUT_MS,
    recoverMs: DEFAULT_RECOVER_MS,
    burstMs: BURST_MS,
  };
  const budget = config.REDIS_URL
    ? createGatewayBudget({
        redisUrl: config.REDIS_URL,
        prefix: config.QUEUE_PREFIX,
        account,
        limits: budgetLimits,
      })
    : createPostgresGatewayBudget({ sql: ctx.db.$client, account, limits: budgetLimits });
  return { limiter: withSharedBudget(local, budget, { logger: ctx.logger }), close: () => budget.close() };
}
