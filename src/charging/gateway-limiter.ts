/**
 * Rule: a charge worker process has at most `maxInFlight` gateway calls open at once, and starts at
 * most `ratePerSecond` of them per second toward the merchant account it is configured with (a
 * token bucket holding one second's worth, so a fresh batch may start a second's worth at once).
 * Both bound this process; K worker processes allow K times as much. Waiters are served in order.
 *
 * Real time, not the billing clock: this paces sockets and the gateway's limits, which live in real
 * time whatever the controllable clock says.
 */
export interface GatewayLimiter {
  /** Runs `call` once a slot and a token are free; the slot is held until it settles. */
  run<T>(call: () => Promise<T>): Promise<T>;
}

export interface GatewayLimits {
  readonly maxInFlight: number;
  readonly ratePerSecond: number;
}

export const UNLIMITED: GatewayLimiter = { run: (call) => call() };

export function createGatewayLimiter(limits: GatewayLimits, now: () => number = () => performance.now()) {
  const { maxInFlight, ratePerSecond } = limits;
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${name} must be a whole number from 1`);
  }
  let inFlight = 0;
  let tokens = ratePerSecond;
  let refilledAt = now();
  let timer: NodeJS.Timeout | undefined;
  const waiting: (() => void)[] = [];

  const refill = () => {
    const at = now();
    tokens = Math.min(ratePerSecond, tokens + ((at - refilledAt) * ratePerSecond) / 1000);
    refilledAt = at;
  };

  const pump = () => {
    refill();
    while (waiting.length > 0 && inFlight < maxInFlight && tokens >= 1) {
      tokens -= 1;
      inFlight += 1;
      waiting.shift()!();
    }
    // Out of tokens with callers waiting: wake when the next token is due.
    if (waiting.length > 0 && inFlight < maxInFlight && timer === undefined) {
      timer = setTimeout(
        () => {
          timer = undefined;
          pump();
        },
        Math.ceil(((1 - tokens) * 1000) / ratePerSecond),
      );
    }
  };

  const limiter: GatewayLimiter = {
    async run(call) {
      await new Promise<void>((start) => {
        waiting.push(start);
        pump();
      });
      try {
        return await call();
      } finally {
        inFlight -= 1;
        pump();
      }
    },
  };
  return limiter;
}
