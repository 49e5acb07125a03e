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
