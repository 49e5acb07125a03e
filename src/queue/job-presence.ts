/** The one query `isJobPresent` needs; every BullMQ queue has it. */
export interface JobStateReader {
  getJobState(jobId: string): Promise<string>;
}

/**
 * Whether a job with this id exists in any state: waiting, delayed (including a retry in backoff),
 * active, or failed and still retained. That is exactly when adding the id again would be a no-op,
 * so a tick re-enqueues a due charge only when this is false. Completed jobs are removed on
 * completion and so count as absent.
 */
export async function isJobPresent(queue: JobStateReader, jobId: string): Promise<boolean> {
  return (await queue.getJobState(jobId)) !== "unknown";
}

/**
 * Whether this id is free for a new job: absent, or failed (BullMQ's retries ran out), which is
 * removed here. BullMQ keeps a failed job and its id for a week, and adding the id again would be
 * a silent no-op that strands work Postgres says is due. A job that waits, is delayed or runs
 * keeps the id: the work is in hand.
 */
export async function makeWayForJob(
  queue: JobStateReader & { remove(jobId: string): Promise<unknown> },
  jobId: string,
): Promise<boolean> {
  const state = await queue.getJobState(jobId);
  if (state === "failed") await queue.remove(jobId);
  return state === "failed" || state === "unknown";
}
