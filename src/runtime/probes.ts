import { Redis } from "ioredis";
import type { EngineContext } from "../context/index.js";
import type { ConnectionProbe } from "./connection-watch.js";

/**
 * The connections a worker process cannot work without: its database pool (the engine's own, so
 * a pool wedged by a broken connection is caught too) and, when the queues run on Redis, Redis.
 * With the queues on PostgreSQL the database probe covers them.
 */
export function workerProbes(ctx: EngineContext): ConnectionProbe[] {
  const probes: ConnectionProbe[] = [{ name: "database", check: () => ctx.db.$client`select 1` }];
  const redisUrl = ctx.config.REDIS_URL;
  if (redisUrl) {
    // A connection of its own that fails at once while Redis is away instead of queueing the ping;
    // ioredis keeps reconnecting it in the background.
    const redis = new Redis(redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
    });
    redis.on("error", () => undefined); // reported by the probe's failures, not as an unhandled event
    probes.push({
      name: "redis",
      check: async () => {
        if (redis.status === "wait") await redis.connect();
        return redis.ping();
      },
      close: () => redis.disconnect(),
    });
  }
  return probes;
}
