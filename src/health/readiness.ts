import type { EngineContext } from "../context/index.js";
import { breakerCheck } from "./breaker-check.js";
import { CHECK_TIMEOUT_MS, type Check, type CheckName, type Readiness, runChecks } from "./check.js";
import { databaseCheck } from "./database-check.js";
import { gatewayCheck } from "./gateway-check.js";
import { queueCheck } from "./queue-check.js";
import { tickCheck } from "./tick-check.js";

/**
 * Whether the engine can collect, check by check: database, queue, gateway reachable, billing
 * tick not stalled, gateway circuit breaker closed. Read by /readyz, `billing status` and the ops
 * dashboard; each check runs concurrently under its own timeout (check.ts).
 */

export interface ReadinessOptions {
  /**
   * How long the asking process has been up: a server passes its uptime for the tick's start-up
   * grace (tick-check.ts). Omitted, no grace.
   */
  uptimeSeconds?: number;
  /** Per-check timeout; default CHECK_TIMEOUT_MS. */
  timeoutMs?: number;
}

export function readiness(
  ctx: Pick<EngineContext, "db" | "queues" | "gateway" | "config">,
  { uptimeSeconds, timeoutMs = CHECK_TIMEOUT_MS }: ReadinessOptions = {},
): Promise<Readiness> {
  const checks: Record<CheckName, Check> = {
    database: () => databaseCheck(ctx),
    queue: () => queueCheck(ctx),
    gateway: () => gatewayCheck(ctx, timeoutMs),
    tick: () => tickCheck(ctx, uptimeSeconds),
    gateway_breaker: () => breakerCheck(ctx),
  };
  return runChecks(checks, { timeoutMs });
}
