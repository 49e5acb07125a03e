import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/logger/index.js";
import {
  type BillingWorker,
  createQueueSystem,
  QUEUE_NAMES,
  type QueueSystem,
} from "../../../src/queue/index.js";
import { type RoleRestart, type Schedule, superviseRoles } from "../../../src/runtime/supervisor.js";
import { watchWorker } from "../../../src/runtime/worker-role.js";
import { deferred, REDIS_URL, uniqueName, withDeadline } from "../../queue/support.js";

/**
 * The supervisor over real BullMQ workers (on the local Redis, under a prefix of their own): a
 * worker that stops by itself is seen as failed and replaced by one that takes jobs again, while
 * the workers the supervisor closes on shutdown are not. Restarts are scheduled at once, so the
 * backoff costs nothing here (supervisor.test.ts covers its timing).
 */

const atOnce: Schedule = (_ms, run) => {
  const timer = setTimeout(run, 0);
  return () => clearTimeout(timer);
};

/** Resolves once `check` holds, polling every 10 ms; fails past 10 s. */
async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let queues: QueueSystem | undefined;

afterEach(async () => {
  await queues?.obliterate();
  await queues?.close();
  queues = undefined;
});

describe("a supervised BullMQ worker", () => {
  it("is restarted when it closes unexpectedly, takes jobs again, and is not restarted on stop", async () => {
    const system = createQueueSystem({ redisUrl: REDIS_URL, prefix: uniqueName("t_restart") });
    queues = system;
    const workers: BillingWorker[] = [];
    const ticked = deferred<number>();
    const restarts: RoleRestart[] = [];
    const supervisor = await superviseRoles(
      [
        {
          name: "scheduler",
          start: async (failed) => {
            const worker = system.worker(QUEUE_NAMES.billingTick, async () => ticked.resolve(workers.length));
            workers.push(worker);
            return watchWorker(worker, failed);
          },
        },
      ],
      { logger: silentLogger, schedule: atOnce, onRestart: (restart) => restarts.push(restart) },
    );

    // Closed by something other than the supervisor: a failure.
    await workers[0]!.close();
    await until("the worker restarted", () => workers.length === 2);
    expect(restarts).toMatchObject([{ role: "scheduler", failures: 1, delayMs: 1_000 }]);
    expect(String(restarts[0]!.error)).toContain("the worker closed unexpectedly");

    await system.queue(QUEUE_NAMES.billingTick).add("tick", {});
    expect(await withDeadline(ticked.promise, 10_000, "the tick")).toBe(2);

    await supervisor.stop();
    expect(workers[1]!.closing).toBeDefined();
    expect(restarts).toHaveLength(1);
    expect(workers).toHaveLength(2);
  });

  it("counts an error as a failure only once the worker's run loop has ended", async () => {
    const system = createQueueSystem({ redisUrl: REDIS_URL, prefix: uniqueName("t_restart") });
    queues = system;
    const worker = system.worker(QUEUE_NAMES.billingTick, async () => undefined);
    const failures: unknown[] = [];
    const stop = watchWorker(worker, (error) => failures.push(error));
    await worker.waitUntilReady();

    // BullMQ reports errors it retries (a dropped connection) while its loop goes on.
    worker.emit("error", new Error("connection reset"));
    expect(failures).toEqual([]);

    // Its loop ended without anyone closing it; the error it reports then is a failure.
    await worker.pause();
    await until("the run loop ended", () => !worker.isRunning());
    worker.emit("error", new Error("loop threw"));
    expect(failures).toEqual([new Error("loop threw")]);

    await stop();
    expect(failures).toHaveLength(1);
  });
});
