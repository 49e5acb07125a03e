import { randomUUID } from "node:crypto";
import type { Sql } from "../db/index.js";
import type { BudgetLimits, SharedBudget } from "./gateway-budget.js";

/**
 * Rule: with queues on PostgreSQL there is no Redis, and the deployment's gateway budget lives in
 * PostgreSQL instead: the same rules as the Redis budget (gateway-budget.ts), in one plpgsql
 * function (migration 0021, `gateway_budget`) that locks the account's row, so every process on
 * every machine sees one budget, on the database's clock. One statement per operation, on the
 * engine's pool; a process keeps its own id for its in-flight lease.
 */
export function createPostgresGatewayBudget(options: {
  readonly sql: Sql;
  /** The merchant account the budget is for (a digest of its key, never the key). */
  readonly account: string;
  readonly limits: BudgetLimits;
}): SharedBudget {
  const { sql, account, limits } = options;
  const processId = randomUUID();
  const call = async (
    op: string,
    max: number,
    atLeast: number,
    returning: number,
    ids: readonly string[] = [],
  ) => {
    const [row] = await sql<{ granted: number; wait_ms: number; reservation: string }[]>`
      select granted, wait_ms, reservation from gateway_budget(
        ${op}, ${account}, ${processId}, ${max}::int, ${atLeast}::int, ${returning}::int,
        ${limits.ratePerSecond ?? 0}::int, ${limits.maxInFlight ?? 0}::int, ${limits.windowMs}::int,
        ${limits.leaseMs}::int, ${limits.recoverMs}::int, ${ids as string[]}::text[], ${limits.burstMs}::int)`;
    if (!row) throw new Error(`gateway_budget(${op}) returned no row`);
    return row;
  };
  return {
    async reserve(max, atLeast, returning) {
      const row = await call("reserve", max, atLeast, returning);
      return {
        granted: row.granted,
        waitMs: row.wait_ms,
        id: row.reservation === "" ? null : row.reservation,
      };
    },
    async giveBack(count) {
      await call("give", 0, 0, count);
    },
    async sent(ids) {
      if (ids.length > 0) await call("sent", 0, 0, 0, ids);
    },
    async throttled() {
      return (await call("throttle", 0, 0, 0)).granted;
    },
    // The pool is the engine's, closed with it.
    async close() {},
  };
}
