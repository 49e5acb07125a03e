import { Redis } from "ioredis";

/**
 * Rule: a process that runs its queues on Redis connects to it once at boot and stops at once if it
 * cannot, naming REDIS_URL and where it points (never the password). Past boot, BullMQ reconnects
 * on its own and a worker's connection watch decides when to give up (src/runtime/README.md); at
 * boot an endless reconnect loop would only hide a wrong URL behind repeated errors.
 */

const CONNECT_TIMEOUT_MS = 5_000;

export class RedisUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    const parsed = new URL(url);
    const where = `${parsed.hostname}:${parsed.port || "6379"}`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`REDIS_URL: cannot connect to Redis at ${where}: ${reason}`, { cause });
    this.name = "RedisUnreachableError";
  }
}

export async function assertRedisReachable(url: string): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED, …) arrives as an event; connect() only says it closed.
  let socketError: unknown;
  redis.on("error", (error) => {
    socketError ??= error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new RedisUnreachableError(url, socketError ?? error);
  } finally {
    redis.disconnect();
  }
}
