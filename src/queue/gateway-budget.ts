import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

/**
 * Rule: one gateway budget per merchant account, shared by every process on every machine, kept
 * in Redis and changed only by one Lua script (atomic, on Redis's own clock, so machines whose
 * clocks differ still agree):
 * - rate: calls are paced by a token bucket refilled at the allowed rate per window and holding
 *   `burstMs` of it, so they reach the gateway as a steady stream rather than a window's worth at
 *   once (a gateway stamps each call as it handles it, so a burst it is still working through
 *   would crowd the next window); and the calls reserved in the last `windowMs` (a sliding log of
 *   reservations) never pass the allowed rate, so no window of that length sees more. A reservation is dated again when its
 *   calls actually go out (`sent`, after their attempts are claimed), so a slow claim cannot bring
 *   two waves closer together at the gateway than in the log; the window is kept a little longer
 *   than a second for the way from us to the gateway;
 * - in flight: each process holds a count of calls open, under a lease refreshed by its every
 *   call; a process that dies stops refreshing, and its count is dropped when its lease runs out;
 * - a 429 halves the allowed rate for everyone, once a second at most, and it then climbs back
 *   (charging/throttle.ts: the same arithmetic, in Lua here).
 * A reservation is all or nothing below `atLeast` (waves, not trickles); when nothing can be
 * granted the script says how long until enough of the window has passed. Keys share one hash tag,
 * so a Redis Cluster keeps them on one node, and expire once nothing uses them.
 */

export interface BudgetLimits {
  /** Calls a second for the whole deployment; null: no rate is shared. */
  readonly ratePerSecond: number | null;
  /** Calls open at once for the whole deployment; null: none is shared. */
  readonly maxInFlight: number | null;
  /** The sliding window the rate is kept over, in ms (1,000 plus a margin for the way there). */
  readonly windowMs: number;
  /** How long a process's in-flight count outlives its last call, in ms. */
  readonly leaseMs: number;
  /** How long the rate takes to climb from nothing back to its whole after a 429, in ms. */
  readonly recoverMs: number;
  /** How much of the rate may go out at once, in ms of it (the bucket's size). */
  readonly burstMs: number;
}

export interface Reservation {
  /** Calls granted now (0, or from `atLeast` up to `max`). */
  readonly granted: number;
  /** When none were granted: ms before asking again makes sense. */
  readonly waitMs: number;
  /** Names the reservation in the log, for `sent`; null when no rate is shared. */
  readonly id: string | null;
}

export interface SharedBudget {
  /** Hands back `returning` finished calls, then reserves up to `max`, `atLeast` or none. */
  reserve(max: number, atLeast: number, returning: number): Promise<Reservation>;
  /** Hands back finished calls. */
  giveBack(count: number): Promise<void>;
  /** The calls of these reservations go out now: they are dated now in the log. */
  sent(ids: readonly string[]): Promise<void>;
  /** The gateway said too many requests: everyone slows down. Returns the rate now allowed. */
  throttled(): Promise<number>;
  close(): Promise<void>;
}

const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local op, proc = ARGV[1], ARGV[2]
local max, least, returning = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local rate, cap = tonumber(ARGV[6]), tonumber(ARGV[7])
local window, lease, recover = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local burst = tonumber(ARGV[12])
local log, flying, leases, slow, seq, bucket = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]

if cap > 0 then
  if returning > 0 and redis.call('HINCRBY', flying, proc, -returning) <= 0 then
    redis.call('HDEL', flying, proc)
  end
  for _, dead in ipairs(redis.call('ZRANGEBYSCORE', leases, '-inf', now)) do
    redis.call('HDEL', flying, dead)
    redis.call('ZREM', leases, dead)
  end
  redis.call('ZADD', leases, now + lease, proc)
  redis.call('PEXPIRE', leases, lease * 2)
  redis.call('PEXPIRE', flying, lease * 2)
end

local allowed = rate
if rate > 0 then
  local s = redis.call('HMGET', slow, 'rate', 'at')
  if s[1] then
    allowed = math.min(rate, tonumber(s[1]) + math.floor((now - tonumber(s[2])) * rate / recover))
    if allowed >= rate then redis.call('DEL', slow) end
  end
end

if op == 'throttle' then
  -- Once a second at most: the 429s of one burst answer the same excess.
  local last = tonumber(redis.call('HGET', slow, 'at') or '-1e15')
  if now - last < 1000 then return {allowed, 0, ''} end
  local lowered = math.max(1, math.floor(allowed / 2))
  redis.call('HSET', slow, 'rate', lowered, 'at', now)
  redis.call('PEXPIRE', slow, recover * 2)
  return {lowered, 0, ''}
end
if op == 'give' then return {0, 0, ''} end
if op == 'sent' then
  for id in string.gmatch(ARGV[11], '[^,]+') do redis.call('ZADD', log, 'XX', now, id) end
  return {0, 0, ''}
end

local free = max
local used = 0
local entries = {}
local perMs, capacity, tokens = 0, 0, 0
if rate > 0 then
  redis.call('ZREMRANGEBYSCORE', log, '-inf', now - window)
  entries = redis.call('ZRANGE', log, 0, -1, 'WITHSCORES')
  for i = 1, #entries, 2 do used = used + tonumber(string.match(entries[i], '^(%d+)')) end
  perMs = allowed / window
  capacity = math.max(1, math.floor(allowed * burst / window))
  tokens = capacity
  local b = redis.call('HMGET', bucket, 'tokens', 'at')
  if b[1] then tokens = math.min(capacity, tonumber(b[1]) + (now - tonumber(b[2])) * perMs) end
  free = math.min(free, allowed - used, math.floor(tokens))
  least = math.min(least, capacity)
end
if cap > 0 then
  local open = 0
  for _, n in ipairs(redis.call('HVALS', flying)) do open = open + tonumber(n) end
  free = math.min(free, cap - open)
  least = math.min(least, cap)
end
least = math.max(1, least)

if free >= least then
  local id = ''
  if rate > 0 then
    id = free .. ':' .. redis.call('INCR', seq)
    redis.call('ZADD', log, now, id)
    redis.call('PEXPIRE', log, window * 2)
    redis.call('PEXPIRE', seq, window * 2)
    redis.call('HSET', bucket, 'tokens', tokens - free, 'at', now)
    redis.call('PEXPIRE', bucket, window * 2)
  end
  if cap > 0 then redis.call('HINCRBY', flying, proc, free) end
  return {free, 0, id}
end

-- Paced: until the bucket holds enough. Window-bound: until the oldest reservations leave it.
-- Else in-flight-bound: soon.
local wait = 5
if rate > 0 and tokens < least then wait = math.ceil((least - tokens) / perMs) end
if rate > 0 and allowed - used < least then
  local freed = allowed - used
  for i = 1, #entries, 2 do
    freed = freed + tonumber(string.match(entries[i], '^(%d+)'))
    if freed >= least then
      wait = math.max(wait, tonumber(entries[i + 1]) + window - now)
      break
    end
  end
end
return {0, math.max(1, wait), ''}
`;

export function createGatewayBudget(options: {
  readonly redisUrl: string;
  /** The queues' namespace, so budgets of separate deployments on one Redis stay apart. */
  readonly prefix: string;
  /** The merchant account the budget is for. */
  readonly account: string;
  readonly limits: BudgetLimits;
}): SharedBudget {
  const { limits } = options;
  // Commands wait for the connection, but fail after one reconnection or two seconds rather than
  // hang through a network partition: the caller then sends nothing.
  const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2_000 });
  // Failures reach the caller through the commands; the connection's own errors are not news.
  redis.on("error", () => undefined);
  redis.defineCommand("gatewayBudget", { numberOfKeys: 6, lua: SCRIPT });
  const tag = `${options.prefix}:gateway-budget:{${options.account}}`;
  const keys = ["log", "flying", "leases", "slow", "seq", "bucket"].map((name) => `${tag}:${name}`);
  const processId = randomUUID();
  const call = async (op: string, max: number, atLeast: number, returning: number, ids = "") => {
    const run = (
      redis as unknown as Record<string, (...args: unknown[]) => Promise<[number, number, string]>>
    ).gatewayBudget!;
    const [first, second, id] = await run.call(
      redis,
      ...keys,
      op,
      processId,
      max,
      atLeast,
      returning,
      limits.ratePerSecond ?? 0,
      limits.maxInFlight ?? 0,
      limits.windowMs,
      limits.leaseMs,
      limits.recoverMs,
      ids,
      limits.burstMs,
    );
    return [Number(first), Number(second), id] as const;
  };
  return {
    async reserve(max, atLeast, returning) {
      const [granted, waitMs, id] = await call("reserve", max, atLeast, returning);
      return { granted, waitMs, id: id === "" ? null : id };
    },
    async giveBack(count) {
      await call("give", 0, 0, count);
    },
    async sent(ids) {
      if (ids.length > 0) await call("sent", 0, 0, 0, ids.join(","));
    },
    async throttled() {
      const [rate] = await call("throttle", 0, 0, 0);
      return rate;
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
