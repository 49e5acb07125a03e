import type {
  ConnectionOptions,
  DefaultJobOptions,
  IQueueBackend,
  Job,
  JobProgress,
  PostgresConnectionOptions,
  PostgresQueueBackend,
  Processor,
  Queue,
  QueueEvents,
  RedisQueueBackend,
  Worker,
} from "bullmq";

export type BackendKind = "redis" | "postgres";

/*
 * BullMQ objects on either backend. The classes are generic in their backend and connection options
 * and invariant in the latter, so a union of the two concrete instantiations is the one type both
 * bindings satisfy; their public API is the same. Payloads are `unknown`: they are validated with zod
 * at the edges (enqueue and worker), not trusted from a type parameter.
 */
type On<B extends IQueueBackend, C> = {
  queue: Queue<unknown, unknown, string, unknown, unknown, string, B, C>;
  worker: Worker<unknown, unknown, string, B, JobProgress, C>;
  events: QueueEvents<unknown, B, C>;
};
type Either<K extends keyof On<IQueueBackend, unknown>> =
  | On<RedisQueueBackend, ConnectionOptions>[K]
  | On<PostgresQueueBackend, PostgresConnectionOptions>[K];

export type BillingQueue = Either<"queue">;
export type BillingWorker = Either<"worker">;
export type BillingQueueEvents = Either<"events">;
export type BillingJob = Job<unknown, unknown, string>;
export type RawProcessor = Processor<unknown, unknown, string>;

export interface WorkerSettings {
  /** Jobs this worker runs at once. Defaults to 1. */
  concurrency?: number;
}

/**
 * Builds BullMQ objects on one datastore. Each implementation decides how connections are opened
 * and shared; the queue system above it only caches and closes what it was given.
 */
export interface BackendBinding {
  readonly kind: BackendKind;
  queue(name: string, defaultJobOptions: DefaultJobOptions): BillingQueue;
  worker(name: string, processor: RawProcessor, settings: WorkerSettings): BillingWorker;
  events(name: string): BillingQueueEvents;
  /** Releases what the binding itself holds. Called once every queue, worker and listener is closed. */
  close(): Promise<void>;
}
