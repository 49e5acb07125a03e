import type { BillingJob, BillingWorker } from "../../../src/queue/index.js";

/**
 * Waits for a job through its worker's own events, so a test awaits the work instead of sleeping:
 * resolves with the processor's result and the errors of the attempts that failed before it, and
 * rejects when the last attempt fails. Call it BEFORE enqueuing, so no event is missed.
 */
export interface JobRun {
  result: unknown;
  failures: Error[];
}

type Listener = (job: BillingJob | undefined, value: unknown) => void;
interface WorkerEvents {
  on(event: "completed" | "failed", listener: Listener): unknown;
  off(event: "completed" | "failed", listener: Listener): unknown;
}

export function jobRun(worker: BillingWorker, jobId: string): Promise<JobRun> {
  const events = worker as unknown as WorkerEvents;
  const failures: Error[] = [];
  return new Promise<JobRun>((resolve, reject) => {
    const stop = () => {
      events.off("completed", onCompleted);
      events.off("failed", onFailed);
    };
    const onCompleted: Listener = (job, result) => {
      if (job?.id !== jobId) return;
      stop();
      resolve({ result, failures });
    };
    const onFailed: Listener = (job, error) => {
      if (job?.id !== jobId) return;
      failures.push(error as Error);
      if (job.attemptsMade >= (job.opts.attempts ?? 1) || job.finishedOn) {
        stop();
        reject(error);
      }
    };
    events.on("completed", onCompleted);
    events.on("failed", onFailed);
  });
}
