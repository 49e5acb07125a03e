import { createRedisBackend, withBackend } from "bullmq";
import { Redis } from "ioredis";
import type { BackendBinding, BillingQueue, BillingQueueEvents, BillingWorker } from "./backend.js";

const { Queue, Worker, QueueEvents } = withBackend(createRedisBackend);

/**
 * BullMQ on Redis. Two shared ioredis connections, opened on first use:
 *
 * - producers: `enableOfflineQueue: false`, so an enqueue while Redis is down fails at once instead of
 *   hanging a request; nothing is lost, because the next tick finds due work again from Postgres;
 * - consumers: `maxRetriesPerRequest: null`, which BullMQ requires of worker connections so a blocked
 *   fetch survives a reconnect. BullMQ duplicates it for each worker's and listener's blocking reads.
 *
 * BullMQ leaves caller-supplied connections open, so `close()` quits both here.
 */
export function redisBinding(redisUrl: string, prefix: string): BackendBinding {
  let producer: Redis | undefined;
  let consumer: Redis | undefined;
  const producerConnection = () => {
    producer ??= new Redis(redisUrl, { enableOfflineQueue: false });
    return producer;
  };
  const consumerConnection = () => {
    consumer ??= new Redis(redisUrl, { maxRetriesPerRequest: null });
    return consumer;
  };

  return {
    kind: "redis",
    queue(name, defaultJobOptions): BillingQueue {
      return new Queue(name, { connection: producerConnection(), prefix, defaultJobOptions });
    },
    worker(name, processor, settings): BillingWorker {
      return new Worker(name, processor, { connection: consumerConnection(), prefix, ...settings });
    },
    events(name): BillingQueueEvents {
      return new QueueEvents(name, { connection: consumerConnection(), prefix });
    },
    async close() {
      await Promise.all([producer?.quit(), consumer?.quit()]);
    },
  };
}
