import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import type { Config } from "../config/index.js";

/**
 * The store every rate limit of the server counts in (@fastify/rate-limit, registered without a
 * global limit: each door says its own, login-throttle.ts and src/api/rate-limit.ts):
 * - with REDIS_URL, Redis, so every server of the engine counts together (a guesser spread over
 *   servers gains nothing), under the engine's QUEUE_PREFIX so two engines on one Redis (and two
 *   tests) never share a counter; else in this process's memory;
 * - a counter that cannot be read fails open (skipOnError, set by each limit): losing Redis must
 *   not lock every client out of the API. Redis's coming and going is logged once each way;
 * - the connection is made before the server answers (onReady), so the first requests are counted
 *   too, and closed with the server.
 */
export function registerRateLimits(app: FastifyInstance, config: Pick<Config, "REDIS_URL" | "QUEUE_PREFIX">) {
  if (!config.REDIS_URL) {
    app.register(rateLimit, { global: false });
    return;
  }
  // Fails at once while Redis is away instead of queueing a request's count behind a reconnect.
  const redis = new Redis(config.REDIS_URL, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: true,
  });
  let reachable = true;
  redis.on("error", (error: Error) => {
    if (!reachable) return;
    reachable = false;
    app.log.warn({ err: error }, "rate limits: Redis unreachable, limits are not enforced until it is back");
  });
  redis.on("ready", () => {
    if (reachable) return;
    reachable = true;
    app.log.info("rate limits: Redis reachable again");
  });
  app.addHook("onReady", async () => {
    await redis.connect().catch(() => undefined);
  });
  app.addHook("onClose", async () => {
    redis.disconnect();
  });
  app.register(rateLimit, { global: false, redis, nameSpace: `${config.QUEUE_PREFIX}:rate-limit:` });
}
