import type { Logger } from "../logger/index.js";
import type { SharedBudget } from "../queue/index.js";
import { type GatewayLimiter, runWithin, type Wave } from "./gateway-limiter.js";

/**
 * Rule: with a budget for the whole deployment (GATEWAY_RATE_PER_SECOND, GATEWAY_MAX_IN_FLIGHT;
 * queue/gateway-budget.ts), a worker process takes calls from its own limiter first (its share of
 * sockets and CPU), then reserves them from the shared budget in one round trip per wave, before
 * any attempt is claimed (the reserve-before-claim rule stays); a wave's reservation is dated again
 * when its claimed calls go out. What the budget does not grant is
 * given back at once; when it grants nothing the process waits as long as the budget says, plus a
 * few random ms, so processes that were refused together do not all ask again at the same
 * instant. Finished calls are handed back to the budget in bulk, with the next reservation or
 * within FLUSH_MS, rather than one round trip per call. A 429 slows down this process and the
 * whole deployment.
 */

const FLUSH_MS = 20;
/** The random part of a wait, at most: enough to spread processes refused together. */
const JITTER_MS = 10;

export function withSharedBudget(
  local: GatewayLimiter,
  budget: SharedBudget,
  options: { logger: Logger; random?: () => number },
): GatewayLimiter {
  const random = options.random ?? Math.random;
  let finished = 0;
  let flushQueued = false;

  const takeFinished = () => {
    const count = finished;
    finished = 0;
    return count;
  };
  const flush = () => {
    flushQueued = false;
    const count = takeFinished();
    if (count === 0) return;
    budget.giveBack(count).catch((err: unknown) => {
      // Lost: the count comes back when this process's lease runs out.
      options.logger.warn({ err, count }, "could not hand finished gateway calls back to the shared budget");
    });
  };

  /** Reserves from the process's limiter, then from the budget; the count and its log entry. */
  async function reserve(max: number, atLeast: number): Promise<{ count: number; id: string | null }> {
    const held = await local.take(max, atLeast);
    const least = Math.min(atLeast, held);
    try {
      for (;;) {
        const returning = takeFinished();
        const { granted, waitMs, id } = await budget
          .reserve(held, least, returning)
          .catch((error: unknown) => {
            finished += returning;
            throw error;
          });
        if (granted > 0) {
          if (granted < held) local.give(held - granted);
          return { count: granted, id };
        }
        const jitter = Math.floor(random() * Math.min(waitMs, JITTER_MS));
        await new Promise((resolve) => setTimeout(resolve, waitMs + jitter));
      }
    } catch (error) {
      local.give(held);
      throw error;
    }
  }

  const limiter: GatewayLimiter = {
    async take(max, atLeast = 1) {
      return (await reserve(max, atLeast)).count;
    },
    async wave(max, atLeast = 1): Promise<Wave> {
      const { count, id } = await reserve(max, atLeast);
      return { count, sending: () => (id === null ? Promise.resolve() : budget.sent([id])) };
    },
    give(count) {
      local.give(count);
      finished += count;
      if (!flushQueued) {
        flushQueued = true;
        setTimeout(flush, FLUSH_MS);
      }
    },
    run: (call) => runWithin(limiter, call),
    throttled() {
      local.throttled();
      budget.throttled().then(
        (rate) => options.logger.warn({ rate }, "the gateway answered 429: the shared budget slows down"),
        (err: unknown) => options.logger.warn({ err }, "could not slow the shared gateway budget down"),
      );
    },
  };
  return limiter;
}
