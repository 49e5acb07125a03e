import type { EngineContext } from "../context/index.js";
import type { CheckResult } from "./check.js";

/** database: Postgres, the source of truth, answers `select 1` on the engine's own pool. */
export async function databaseCheck(ctx: Pick<EngineContext, "db">): Promise<CheckResult> {
  await ctx.db.$client`select 1`;
  return { status: "ok", reason: "answers" };
}
