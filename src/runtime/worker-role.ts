import type { EngineContext } from "../context/index.js";
import type { BillingWorker } from "../queue/index.js";
import type { StopRole, SupervisedRole } from "./supervisor.js";

/**
 * A role that runs as a BullMQ worker, under supervision (supervisor.ts). The worker has failed
 * when it stops without being asked to: it emits 'closed' though nobody here closed it, or it
 * emits an 'error' after its run loop ended (BullMQ reports a loop that threw that way, and keeps
 * running after every other error, such as a dropped connection it retries). A worker that closed
 * by itself is reported with the last error it emitted as the cause, which says why (a lost
 * connection is then logged as part of its outage, supervisor.ts).
 */
export function watchWorker(worker: BillingWorker, failed: (error: unknown) => void): StopRole {
  let stopping = false;
  let lastError: unknown;
  worker.on("closed", () => {
    if (!stopping) failed(new Error("the worker closed unexpectedly", { cause: lastError }));
  });
  worker.on("error", (error) => {
    lastError = error;
    if (!stopping && !worker.isRunning() && worker.closing === undefined) failed(error);
  });
  return () => {
    stopping = true;
    return worker.close();
  };
}

/** A role of roles.ts that starts one worker, as the supervisor runs it. */
export function workerRole(
  name: string,
  start: (ctx: EngineContext) => BillingWorker | Promise<BillingWorker>,
  ctx: EngineContext,
): SupervisedRole {
  return { name, start: async (failed) => watchWorker(await start(ctx), failed) };
}
