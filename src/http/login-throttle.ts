import { normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config/index.js";

/**
 * A throttle on guessing at a door that takes a secret (an ops login's API key, a portal link's
 * token), per client address: request.ip, the client's behind a proxy when TRUST_PROXY says so.
 * - Only failures count: LOGIN_FAILURE_LIMIT of them within LOGIN_FAILURE_WINDOW_SECONDS lock the
 *   address out for LOGIN_LOCKOUT_SECONDS. The count is not reset by the lockout, so one more
 *   failure after it (within the window) locks the address out again at once.
 * - A lockout grows: each one of the address within a day lasts twice the one before, up to
 *   LOGIN_LOCKOUT_MAX_SECONDS.
 * - While locked out, the door looks at no secret (guessing goes no faster) and counts nothing (the
 *   lockout does not grow with hammering alone, which would let anyone lock a shared address out
 *   for good); the answer is a 429 with Retry-After.
 * - Every failure is an audit line (warn) with the address and what the door adds, never the
 *   secret; so is every lockout.
 * The counters live in the server's rate-limit store (rate-limits.ts): Redis, shared by every
 * server, when the engine has one.
 */

export interface LoginThrottle {
  /** Seconds the request's address stays locked out, or 0 when it may try. */
  lockedFor(request: FastifyRequest): Promise<number>;
  /**
   * Records a failure and writes its audit line (`fields` and the address, with `message`).
   * Returns the seconds of the lockout it started, or 0.
   */
  failed(request: FastifyRequest, fields: Record<string, unknown>, message: string): Promise<number>;
}

export type LoginThrottleSettings = Pick<
  Config,
  | "LOGIN_FAILURE_LIMIT"
  | "LOGIN_FAILURE_WINDOW_SECONDS"
  | "LOGIN_LOCKOUT_SECONDS"
  | "LOGIN_LOCKOUT_MAX_SECONDS"
>;

/** How long lockouts are remembered, for their growth. */
const LOCKOUT_MEMORY_MS = 24 * 3600 * 1000;

type Limit = ReturnType<FastifyInstance["createRateLimit"]>;

/** What a counter holds (its limit less what remains), 0 when it could not be read (fails open). */
async function countOf(limit: Limit, request: FastifyRequest, increment: boolean): Promise<number> {
  const state = await limit(request, { increment });
  return state.isAllowed ? 0 : state.max - state.remaining;
}

/** `door` names the counters and the audit lines ("ops_login", "portal_link"). */
export function loginThrottle(
  app: FastifyInstance,
  door: string,
  settings: LoginThrottleSettings,
): LoginThrottle {
  const address = (request: FastifyRequest) => normalizeIP(request.ip);
  const lockoutMs = (lockouts: number) =>
    Math.min(
      settings.LOGIN_LOCKOUT_SECONDS * 2 ** Math.max(0, lockouts - 1),
      Math.max(settings.LOGIN_LOCKOUT_SECONDS, settings.LOGIN_LOCKOUT_MAX_SECONDS),
    ) * 1000;
  // A lockout's length depends on how many came before; the in-memory store measures a counter's
  // life by the window it is given, so reads and writes of one lockout must pass the same length.
  const lengths = new WeakMap<FastifyRequest, number>();

  const failures = app.createRateLimit({
    max: settings.LOGIN_FAILURE_LIMIT - 1,
    timeWindow: settings.LOGIN_FAILURE_WINDOW_SECONDS * 1000,
    keyGenerator: (request) => `${door}-failures:${address(request)}`,
    skipOnError: true,
  });
  const lockouts = app.createRateLimit({
    max: Number.MAX_SAFE_INTEGER,
    timeWindow: LOCKOUT_MEMORY_MS,
    keyGenerator: (request) => `${door}-lockouts:${address(request)}`,
    skipOnError: true,
  });
  const lock = app.createRateLimit({
    max: 0,
    timeWindow: (request) => lengths.get(request) ?? lockoutMs(1),
    keyGenerator: (request) => `${door}-lock:${address(request)}`,
    skipOnError: true,
  });

  return {
    async lockedFor(request) {
      const before = await countOf(lockouts, request, false);
      if (before === 0) return 0;
      lengths.set(request, lockoutMs(before));
      const state = await lock(request, { increment: false });
      if (state.isAllowed || !state.isExceeded || state.ttl <= 0) return 0;
      return Math.max(1, state.ttlInSeconds);
    },

    async failed(request, fields, message) {
      const ip = request.ip;
      request.log.warn({ ...fields, door, ip }, message);
      const counted = await failures(request);
      if (counted.isAllowed || !counted.isExceeded) return 0;
      const lockoutsNow = await countOf(lockouts, request, true);
      const ms = lockoutMs(Math.max(1, lockoutsNow));
      lengths.set(request, ms);
      await lock(request);
      const seconds = Math.ceil(ms / 1000);
      request.log.warn(
        { door, ip, lockoutSeconds: seconds, lockoutsToday: lockoutsNow },
        `${door}: address locked out for ${seconds} s after ${settings.LOGIN_FAILURE_LIMIT} failures`,
      );
      return seconds;
    },
  };
}
