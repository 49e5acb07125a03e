import type { EngineContext } from "../context/index.js";
import { recordEvents } from "../events/index.js";
import { type BreakerRow, type BreakerState, stateOf } from "./state.js";

/**
 * Rule: only an operator closes the breaker, after checking the gateway (API key, environment, the
 * gateway's own state). Closing starts a fresh count: signs from before it never reopen it. Charges
 * that waited are due at once and are found again by the next tick; nothing was condemned
 * meanwhile, so nothing needs undoing. Closing a closed breaker changes nothing.
 */
export async function resumeCollection(
  ctx: Pick<EngineContext, "db" | "clock" | "logger">,
  input: { readonly actor: string; readonly note?: string | undefined },
): Promise<{ readonly resumed: boolean; readonly state: BreakerState }> {
  return ctx.db.$client.begin(async (tx) => {
    const [closed] = await tx<BreakerRow[]>`
      update gateway_breaker set closed_at = now(), closed_by = ${input.actor}
      where id = 1 and opened_at is not null and closed_at is null
      returning opened_at, reason, signal::text as signal, closed_at, closed_by`;
    if (!closed) {
      const [row] = await tx<BreakerRow[]>`
        select opened_at, reason, signal::text as signal, closed_at, closed_by from gateway_breaker where id = 1`;
      return { resumed: false, state: stateOf(row) };
    }
    const state = stateOf(closed);
    // Charges held while paused go at once, not after their dispatch lease runs out.
    await tx`update charges set dispatched_at = null
      where status in ('scheduled', 'retrying') and dispatched_at is not null`;
    await recordEvents(tx, [
      {
        type: "gateway.breaker_closed",
        actor: input.actor,
        occurredAt: ctx.clock.now(),
        data: {
          reason: state.reason,
          opened_at: state.openedAt?.toUTC().toISO() ?? null,
          note: input.note ?? null,
        },
      },
    ]);
    ctx.logger.warn(
      { actor: input.actor, reason: state.reason },
      "gateway circuit breaker closed: collection resumes",
    );
    return { resumed: true, state };
  });
}
