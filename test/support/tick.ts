import type { EngineContext } from "../../src/context/index.js";
import { runBillingTick, runWaitingStatusChecks, type TickOptions } from "../../src/scheduler/index.js";

/**
 * A billing tick, then the status checks it handed out, run here as their worker would run them:
 * for tests that assert what one pass reconciled (refunds, late payments, enrolments).
 */
export async function tickAndCheck(ctx: EngineContext, options: TickOptions = {}) {
  const tick = await runBillingTick(ctx, options);
  return { ...tick, ...(await runWaitingStatusChecks(ctx)) };
}
