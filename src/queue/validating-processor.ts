import { UnrecoverableError } from "bullmq";
import { z } from "zod";
import type { BillingJob, RawProcessor } from "./backend.js";
import type { QueueName } from "./names.js";
import { type PayloadOf, payloadSchema } from "./payloads.js";

/** What a worker of queue `N` runs: the validated payload, and the job for its id and attempt count. */
export type PayloadProcessor<N extends QueueName> = (
  payload: PayloadOf<N>,
  job: BillingJob,
) => Promise<unknown>;

/**
 * Validates each job's payload before the processor sees it. Enqueue already validates, but jobs can
 * also come from an older deploy, a dashboard or a hand-written `queue.add`, so a worker re-checks.
 */
export function validatingProcessor<N extends QueueName>(
  name: N,
  processor: PayloadProcessor<N>,
): RawProcessor {
  const schema = payloadSchema(name);
  return async (job) => {
    const parsed = schema.safeParse(job.data);
    if (!parsed.success) {
      // No retry can fix a malformed payload: fail the job now, where it stays visible in the failed set.
      throw new UnrecoverableError(
        `invalid ${name} payload in job ${job.id}: ${z.prettifyError(parsed.error)}`,
      );
    }
    return processor(parsed.data, job);
  };
}
