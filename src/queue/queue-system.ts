import type { Logger } from "../logger/index.js";
import { silentLogger } from "../logger/index.js";
import type {
  BackendBinding,
  BackendKind,
  BillingQueue,
  BillingQueueEvents,
  BillingWorker,
  WorkerSettings,
} from "./backend.js";
import { isConnectionError } from "./connection-error.js";
import { connectionErrorLog } from "./connection-error-log.js";
import { DEFAULT_RETRY_POLICY, defaultJobOptions, type RetryPolicy } from "./job-options.js";
import { ALL_QUEUE_NAMES, JOB_NAMES, type QueueName } from "./names.js";
import { type PayloadInputOf, payloadSchema } from "./payloads.js";
import { postgresBinding } from "./postgres-binding.js";
import { redisBinding } from "./redis-binding.js";
import { runLoopGuard } from "./run-loop-guard.js";
import { type PayloadProcessor, validatingProcessor } from "./validating-processor.js";

export interface QueueSystemOptions {
  /** When set, BullMQ runs on Redis. */
  redisUrl?: string;
  /** Used when there is no `redisUrl`: BullMQ then runs on its PostgreSQL backend. */
  databaseUrl?: string;
  /**
   * Namespace of every queue: the Redis key prefix, or the Postgres schema holding BullMQ's tables.
   * Lower-case letters, digits and `_`, so it is valid as both. Defaults to `bullmq`.
   */
  prefix?: string;
  logger?: Logger;
  retry?: Partial<RetryPolicy>;
}

export interface SchedulerTemplate<N extends QueueName> {
  data: PayloadInputOf<N>;
}

export interface QueueSystem {
  readonly backend: BackendKind;
  readonly prefix: string;
  /** The queue of that name, created on first use and shared afterwards. */
  queue(name: QueueName): BillingQueue;
  /** A worker whose processor only ever sees payloads that passed the queue's schema. */
  worker<N extends QueueName>(
    name: N,
    processor: PayloadProcessor<N>,
    settings?: WorkerSettings,
  ): BillingWorker;
  /** The queue's event stream (completed, failed, …), created on first use and shared afterwards. */
  events(name: QueueName): BillingQueueEvents;
  /**
   * Creates or updates a scheduler that adds a job to the queue every `everyMs`. Upserting the same
   * id from every process at boot is safe: BullMQ keeps one scheduler per id.
   */
  upsertScheduler<N extends QueueName>(
    queueName: N,
    schedulerId: string,
    repeat: { everyMs: number },
    template: SchedulerTemplate<N>,
  ): Promise<void>;
  /** Deletes every job and scheduler of every queue under this prefix. For tests and local resets. */
  obliterate(): Promise<void>;
  /**
   * Stops workers taking jobs and waits for the jobs they hold, then closes listeners, queues and
   * connections, in that order. Safe to call more than once.
   */
  close(): Promise<void>;
}

const PREFIX = /^[a-z_][a-z0-9_]{0,62}$/;

function chooseBinding(options: QueueSystemOptions, prefix: string): BackendBinding {
  if (options.redisUrl) return redisBinding(options.redisUrl, prefix);
  if (options.databaseUrl) return postgresBinding(options.databaseUrl, prefix);
  throw new Error("createQueueSystem needs a redisUrl or a databaseUrl");
}

/** The one place BullMQ queues, workers and listeners are created, and closed. */
export function createQueueSystem(options: QueueSystemOptions): QueueSystem {
  const prefix = options.prefix ?? "bullmq";
  if (!PREFIX.test(prefix)) {
    throw new Error(`queue prefix ${JSON.stringify(prefix)} must match ${PREFIX}`);
  }
  const logger = (options.logger ?? silentLogger).child({ component: "queue" });
  // One log for every queue, worker and listener: a lost backend is one outage, told once.
  const logError = connectionErrorLog(logger);
  const binding = chooseBinding(options, prefix);
  const jobOptions = defaultJobOptions({ ...DEFAULT_RETRY_POLICY, ...options.retry });
  const queues = new Map<QueueName, BillingQueue>();
  const listeners = new Map<QueueName, BillingQueueEvents>();
  const workers: BillingWorker[] = [];
  let closing: Promise<void> | undefined;

  const assertOpen = () => {
    if (closing) throw new Error("the queue system is closed");
  };

  const queue = (name: QueueName): BillingQueue => {
    assertOpen();
    let existing = queues.get(name);
    if (!existing) {
      existing = binding.queue(name, jobOptions);
      // An unhandled 'error' event would crash the process; connection errors are retried by BullMQ.
      existing.on("error", (err) => logError(err, { queue: name }, "queue error"));
      queues.set(name, existing);
    }
    return existing;
  };

  const close = async (): Promise<void> => {
    // Workers first, so jobs in hand finish while their queues and connections are still open.
    const stages: { close(): Promise<void> }[][] = [workers, [...listeners.values()], [...queues.values()]];
    const failures: unknown[] = [];
    for (const stage of stages) {
      const results = await Promise.allSettled(stage.map((closable) => closable.close()));
      for (const result of results) if (result.status === "rejected") failures.push(result.reason);
    }
    await binding.close().catch((err: unknown) => failures.push(err));
    if (failures.length > 0) throw new AggregateError(failures, "the queue system did not close cleanly");
  };

  return {
    backend: binding.kind,
    prefix,
    queue,
    worker(name, processor, settings = {}) {
      assertOpen();
      const worker = binding.worker(name, validatingProcessor(name, processor), settings);
      let lastError: unknown;
      const spinning = runLoopGuard(() => {
        // Lost connections were told already; what follows from them is detail.
        const level = isConnectionError(lastError) ? "debug" : "warn";
        logger[level](
          { queue: name },
          "the worker's run loop fails without waiting; closing it for a restart",
        );
        worker.close().catch((err: unknown) => logError(err, { queue: name }, "closing the worker failed"));
      });
      worker.on("error", (err) => {
        lastError = err;
        logError(err, { queue: name }, "worker error");
        spinning();
      });
      worker.on("failed", (job, err) =>
        logger.warn({ err, queue: name, jobId: job?.id, attemptsMade: job?.attemptsMade }, "job failed"),
      );
      workers.push(worker);
      return worker;
    },
    events(name) {
      assertOpen();
      let existing = listeners.get(name);
      if (!existing) {
        existing = binding.events(name);
        existing.on("error", (err) => logError(err, { queue: name }, "queue events error"));
        listeners.set(name, existing);
      }
      return existing;
    },
    async upsertScheduler(queueName, schedulerId, repeat, template) {
      const data = payloadSchema(queueName).parse(template.data);
      await queue(queueName).upsertJobScheduler(
        schedulerId,
        { every: repeat.everyMs },
        { name: JOB_NAMES[queueName], data },
      );
    },
    async obliterate() {
      await Promise.all(ALL_QUEUE_NAMES.map((name) => queue(name).obliterate({ force: true })));
    },
    close() {
      closing ??= close();
      return closing;
    },
  };
}
