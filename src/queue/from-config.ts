import type { Config } from "../config/index.js";
import type { Logger } from "../logger/index.js";
import type { QueueSystemOptions } from "./queue-system.js";

/** The queue system the environment describes: Redis when REDIS_URL is set, else DATABASE_URL. */
export function queueSystemOptionsFromConfig(config: Config, logger?: Logger): QueueSystemOptions {
  return {
    redisUrl: config.REDIS_URL,
    databaseUrl: config.DATABASE_URL,
    prefix: config.QUEUE_PREFIX,
    logger,
    retry: {
      attempts: config.QUEUE_ATTEMPTS,
      backoffMs: config.QUEUE_BACKOFF_MS,
      jitter: config.QUEUE_BACKOFF_JITTER,
    },
  };
}
