import { allowedRate, DEFAULT_RECOVER_MS, type Slowdown, slowedDown } from "./throttle.js";

/**
 * Rule: a charge worker process has at most `maxInFlight` gateway calls open at once, and starts at
 * most `ratePerSecond` of them per second toward the merchant account it is configured with (a
 * token bucket holding one second's worth, so a fresh batch may start a second's worth at once).
 * Both bound this process; K worker processes allow K times as much (a budget for the whole
 * deployment is shared-limiter.ts). A 429 from the gateway halves the rate, which then recovers
 * (throttle.ts). Waiters are served in order.
 *
 * Calls are taken BEFORE their attempts are claimed (`take`, then claim, then send at once), so a
 * committed attempt never waits in line for the gateway: the time from its row to its call stays
 * far inside the quiet period that tells a live call from an abandoned one (quiet-period.ts). A
 * taker may ask to wait until a few calls are free at once (`atLeast`), so that a saturated process
 * claims in waves rather than one charge per transaction.
 *
 * Real time, not the billing clock: this paces sockets and the gateway's limits, which live in real
 * time whatever the controllable clock says.
 */
export interface GatewayLimiter {
  /**
   * Waits until `atLeast` calls may start (never more than the limits allow at once), then takes as
   * many as may start now, up to `max`; returns how many.
   */
  take(max: number, atLeast?: number): Promise<number>;
  /** Gives back calls taken (finished, or not needed after all). */
  give(count: number): void;
  /**
   * As take, for a wave whose attempts are claimed before they go out: `sending` is called once
   * they go, so a shared budget dates them when they reach the gateway, not when reserved.
   */
  wave(max: number, atLeast?: number): Promise<Wave>;
  /** Takes one call, runs it and gives it back when it settles. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** The gateway answered "too many requests": slow down, then recover. */
  throttled(): void;
}

export interface Wave {
  readonly count: number;
  sending(): Promise<void>;
}

const NOTHING_TO_DATE = async () => undefined;

export interface GatewayLimits {
  readonly maxInFlight: number;
  readonly ratePerSecond: number;
}

export const UNLIMITED: GatewayLimiter = {
  take: async (max) => max,
  wave: async (max) => ({ count: max, sending: NOTHING_TO_DATE }),
  give: () => undefined,
  run: (call) => call(),
  throttled: () => undefined,
};

interface Waiter {
  readonly max: number;
  readonly atLeast: number;
  readonly grant: (count: number) => void;
}

export function createGatewayLimiter(
  limits: GatewayLimits,
  now: () => number = () => performance.now(),
): GatewayLimiter {
  const { maxInFlight, ratePerSecond } = limits;
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${name} must be a whole number from 1`);
  }
  let inFlight = 0;
  let tokens = ratePerSecond;
  let refilledAt = now();
  let timer: NodeJS.Timeout | undefined;
  let slowdown: Slowdown | null = null;
  let rate = ratePerSecond;
  const waiting: Waiter[] = [];

  const refill = () => {
    const at = now();
    rate = allowedRate(ratePerSecond, slowdown, at, DEFAULT_RECOVER_MS);
    if (rate === ratePerSecond) slowdown = null;
    tokens = Math.min(rate, tokens + ((at - refilledAt) * rate) / 1000);
    refilledAt = at;
  };

  const pump = () => {
    refill();
    while (
      waiting.length > 0 &&
      maxInFlight - inFlight >= waiting[0]!.atLeast &&
      tokens >= Math.min(waiting[0]!.atLeast, rate)
    ) {
      const waiter = waiting.shift()!;
      const count = Math.min(waiter.max, maxInFlight - inFlight, Math.floor(tokens));
      tokens -= count;
      inFlight += count;
      waiter.grant(count);
    }
    // Out of tokens with callers waiting: wake when enough tokens are due.
    const next = waiting[0];
    if (next && maxInFlight - inFlight >= next.atLeast && timer === undefined) {
      timer = setTimeout(
        () => {
          timer = undefined;
          pump();
        },
        Math.ceil(((Math.min(next.atLeast, rate) - tokens) * 1000) / rate),
      );
    }
  };

  const limiter: GatewayLimiter = {
    take(max, atLeast = 1) {
      if (!Number.isSafeInteger(max) || max < 1)
        throw new RangeError(`take needs a whole number from 1, got ${max}`);
      const least = Math.max(1, Math.min(atLeast, max, maxInFlight, ratePerSecond));
      return new Promise<number>((grant) => {
        waiting.push({ max, atLeast: least, grant });
        pump();
      });
    },
    give(count) {
      inFlight -= count;
      pump();
    },
    async wave(max, atLeast) {
      return { count: await limiter.take(max, atLeast), sending: NOTHING_TO_DATE };
    },
    run: (call) => runWithin(limiter, call),
    throttled() {
      refill();
      slowdown = slowedDown(ratePerSecond, slowdown, refilledAt, DEFAULT_RECOVER_MS);
      rate = slowdown.rate;
      tokens = Math.min(tokens, rate);
    },
  };
  return limiter;
}

/** One call within `limiter`: it waits for a slot and gives it back however the call ends. */
export async function runWithin<T>(limiter: GatewayLimiter, call: () => Promise<T>): Promise<T> {
  await limiter.take(1);
  try {
    return await call();
  } finally {
    limiter.give(1);
  }
}
