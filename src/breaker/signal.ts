import {
  type BreakerCounts,
  type BreakerSignal,
  type BreakerThresholds,
  breakerVerdict,
} from "../billing/index.js";
import type { Config } from "../config/index.js";
import type { EngineContext } from "../context/index.js";
import { pgInteger } from "../db/index.js";
import { recordEvents } from "../events/index.js";
import { collectionPaused } from "./state.js";

/**
 * Rule: every sign of a systemic gateway failure is recorded (gateway_signals) and, in the same
 * transaction, the signs within BREAKER_WINDOW_SECONDS since the breaker was last closed are
 * counted against the thresholds (billing/breaker.ts); over one, the breaker opens for every process
 * with a `gateway.breaker_opened` event and an error in the log. Returns whether collection is
 * paused now, so the caller holds what it was about to condemn (a card, a charge) instead.
 *
 * Cards refused with -7 count once per card, so one card refused on every retry never trips it;
 * status checks that failed count once per attempt, likewise. `found` (a status check that found
 * the payment) is recorded only to weigh "not found" and failed status checks.
 *
 * While the breaker is open, signals are still recorded but change nothing: an open breaker is
 * neither reopened nor moved (its opened_at stays), and resuming counts only what comes after, so
 * the reads that go on while it is open ("not found" from reconciliation) never keep it shut.
 */
type Ctx = Pick<EngineContext, "db" | "clock" | "logger" | "config">;

/** The transaction-scoped advisory lock taken around the breaker's count. */
const BREAKER_LOCK = "billing-engine:gateway-breaker";

export function breakerThresholds(
  config: Pick<
    Config,
    | "BREAKER_TOKEN_REFUSALS"
    | "BREAKER_NOT_FOUND"
    | "BREAKER_NOT_FOUND_SHARE"
    | "BREAKER_AUTH_REFUSALS"
    | "BREAKER_STATUS_CHECK_FAILURES"
  >,
): BreakerThresholds {
  return {
    tokenRefused: config.BREAKER_TOKEN_REFUSALS,
    notFound: config.BREAKER_NOT_FOUND,
    notFoundShare: config.BREAKER_NOT_FOUND_SHARE,
    authRefused: config.BREAKER_AUTH_REFUSALS,
    statusCheckFailed: config.BREAKER_STATUS_CHECK_FAILURES,
  };
}

export async function recordGatewaySignal(
  ctx: Ctx,
  signal: BreakerSignal,
  subject: string | null,
): Promise<{ paused: boolean }> {
  const window = ctx.config.BREAKER_WINDOW_SECONDS;
  if (signal === "found") {
    // A payment found only weighs against the others: it can trip nothing, so it is recorded
    // without the lock and the count, which a fault storm would otherwise serialise on.
    await ctx.db.$client`insert into gateway_signals (signal, subject) values ('found', ${subject}::uuid)`;
    return { paused: await collectionPaused(ctx.db.$client) };
  }
  return ctx.db.$client.begin(async (tx) => {
    // One signal counted at a time, so processes reporting together cannot each miss the others
    // and let more through than the threshold (the chaos suite saw 11 cards at a threshold of 10).
    await tx`select pg_advisory_xact_lock(hashtext(${BREAKER_LOCK}))`;
    await tx`insert into gateway_signals (signal, subject) values (${signal}::breaker_signal, ${subject}::uuid)`;
    // Open already: there is nothing to decide, and an open breaker is never moved.
    if (await collectionPaused(tx)) return { paused: true };
    const rows = await tx<{ signal: BreakerSignal; count: string }[]>`
      select signal::text as signal, count(distinct coalesce(subject::text, id::text)) as count
      from gateway_signals
      where created_at > greatest(now() - make_interval(secs => ${window}),
        coalesce((select closed_at from gateway_breaker where id = 1), '-infinity'))
      group by signal`;
    const counts: BreakerCounts = {
      token_refused: 0,
      not_found: 0,
      auth_refused: 0,
      found: 0,
      status_check_failed: 0,
    };
    const tally: Record<string, number> = counts;
    for (const row of rows) tally[row.signal] = pgInteger(row.count);
    const verdict = breakerVerdict(counts, breakerThresholds(ctx.config), window);
    if (!verdict.trip) return { paused: await collectionPaused(tx) };
    const opened = await tx`
      insert into gateway_breaker as b (id, opened_at, reason, signal)
      values (1, now(), ${verdict.reason}, ${verdict.signal}::breaker_signal)
      on conflict (id) do update set opened_at = now(), reason = excluded.reason, signal = excluded.signal,
        closed_at = null, closed_by = null
      where b.closed_at is not null or b.opened_at is null
      returning 1`;
    if (opened.length > 0) {
      // What was already acted on before the count was reached (a card retired, an attempt
      // released), so an operator can look at those first.
      const recent = await tx<{ subject: string }[]>`
        select distinct subject::text as subject from gateway_signals
        where signal = ${verdict.signal}::breaker_signal and subject is not null
          and created_at > now() - make_interval(secs => ${window})
        limit 100`;
      ctx.logger.error(
        { signal: verdict.signal, counts, reason: verdict.reason },
        "gateway circuit breaker opened: collection is paused until an operator resumes it (billing breaker resume)",
      );
      await recordEvents(tx, [
        {
          type: "gateway.breaker_opened",
          actor: "breaker",
          occurredAt: ctx.clock.now(),
          data: {
            signal: verdict.signal,
            reason: verdict.reason,
            counts,
            window_seconds: window,
            subjects: recent.map((row) => row.subject),
          },
        },
      ]);
    }
    return { paused: true };
  });
}
