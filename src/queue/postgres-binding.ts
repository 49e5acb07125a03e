import { createPostgresBackend, type PostgresPoolConfig, withBackend } from "bullmq";
import type { BackendBinding, BillingQueue, BillingQueueEvents, BillingWorker } from "./backend.js";
import { ListenedPoolClient, listenOnEveryPgClient } from "./pg-pool-client.js";

const { Queue, Worker, QueueEvents } = withBackend(createPostgresBackend);

/** Queries a producer runs at once; an enqueue is a single statement. */
const PRODUCER_POOL_SIZE = 2;
/** A worker's pool never needs more than one query per job in hand plus its lock and stall timers. */
const MAX_WORKER_POOL_SIZE = 10;

/**
 * BullMQ on PostgreSQL (BullMQ 6's `createPostgresBackend`). Jobs, schedulers and events live in
 * tables of one schema, named by the queue prefix, next to the domain data.
 *
 * Each queue, worker and listener is given a connection *config* rather than a shared `pg.Pool`:
 * with a config BullMQ owns the pool, runs its schema migrations on connect (`migrate: true`,
 * serialised across processes by an advisory lock), applies the schema to `search_path`, and opens
 * a worker's LISTEN connection outside the pool, so a small pool cannot deadlock against a parked
 * LISTEN. A shared pool would skip all three. The cost is one small pool per object. Every client
 * BullMQ makes is a ListenedPoolClient, so a database that dies under them is not a crash.
 */
export function postgresBinding(databaseUrl: string, schema: string): BackendBinding {
  listenOnEveryPgClient();
  const connection = (max: number): PostgresPoolConfig => ({
    connectionString: databaseUrl,
    schema,
    migrate: true,
    max,
    Client: ListenedPoolClient,
  });

  return {
    kind: "postgres",
    queue(name, defaultJobOptions): BillingQueue {
      return new Queue(name, { connection: connection(PRODUCER_POOL_SIZE), defaultJobOptions });
    },
    worker(name, processor, settings): BillingWorker {
      const poolSize = Math.min((settings.concurrency ?? 1) + 2, MAX_WORKER_POOL_SIZE);
      return new Worker(name, processor, { connection: connection(poolSize), ...settings });
    },
    events(name): BillingQueueEvents {
      return new QueueEvents(name, { connection: connection(1) });
    },
    // Every pool belongs to the object that built it and is ended by that object's close().
    async close() {},
  };
}
