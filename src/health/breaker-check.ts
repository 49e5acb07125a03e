import { breakerState } from "../breaker/index.js";
import type { EngineContext } from "../context/index.js";
import type { CheckResult } from "./check.js";

/** gateway_breaker: failing while the circuit breaker holds collection, with why and how to resume. */
export async function breakerCheck(ctx: Pick<EngineContext, "db">): Promise<CheckResult> {
  const state = await breakerState(ctx.db.$client);
  const openedAt = state.openedAt?.toUTC().toISO() ?? null;
  const detail = {
    state: state.open ? "open" : "closed",
    opened_at: openedAt,
    reason: state.reason,
    signal: state.signal,
  };
  if (!state.open) return { status: "ok", reason: "closed", detail };
  return {
    status: "failing",
    reason: `open since ${openedAt}: ${state.reason}; resume with \`billing breaker resume\``,
    detail,
  };
}
