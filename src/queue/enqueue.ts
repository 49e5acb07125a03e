import type { BillingQueue } from "./backend.js";
import { chargeJobId, invoiceJobId, statusCheckJobId, tokenDeactivationJobId } from "./job-ids.js";
import { makeWayForJob } from "./job-presence.js";
import { JOB_NAMES, type QueueName } from "./names.js";
import { type PayloadInputOf, type PayloadOf, payloadSchema, type StatusCheck } from "./payloads.js";

/** Anything that hands out queues by name; in practice the queue system. */
export interface QueueSource {
  queue(name: QueueName): BillingQueue;
}

export interface EnqueueOptions {
  /** Run no earlier than this many ms from now. */
  delayMs?: number;
}

/**
 * Validates the payload (a ZodError names the offending field) and adds the job under an id derived
 * from it. Adding an id that is still queued is a no-op in BullMQ, so repeating a call is harmless.
 * Returns the job id.
 */
async function enqueue<N extends QueueName>(
  queues: QueueSource,
  name: N,
  payload: PayloadInputOf<N>,
  jobIdOf: (payload: PayloadOf<N>) => string | undefined,
  options: EnqueueOptions,
): Promise<string> {
  const data = payloadSchema(name).parse(payload);
  const jobId = jobIdOf(data);
  const job = await queues.queue(name).add(JOB_NAMES[name], data, { jobId, delay: options.delayMs });
  if (job.id === undefined) throw new Error(`BullMQ gave no id to a ${name} job`);
  return job.id;
}

export interface ChargeEnqueueOptions extends EnqueueOptions {
  /** The charge's dunning attempt, from 1; each attempt is its own job. */
  attempt: number;
}

/** One charge as a batch of one, under the id `charge-<charge id>-<attempt>` (see job-ids.ts). */
export function enqueueCharge(
  queues: QueueSource,
  payload: { chargeId: string },
  options: ChargeEnqueueOptions,
): Promise<string> {
  return enqueue(
    queues,
    "charges",
    { chargeIds: [payload.chargeId] },
    () => chargeJobId(payload.chargeId, options.attempt),
    options,
  );
}

/**
 * Adds one job per batch of charge ids in a single round trip (BullMQ addBulk). The jobs get
 * BullMQ's own ids: Postgres records which charges were dispatched, so a repeat is found there, not
 * by a job id. Every batch is validated first; nothing is added when one is invalid.
 */
export async function enqueueChargeBatches(
  queues: QueueSource,
  batches: readonly (readonly string[])[],
): Promise<number> {
  if (batches.length === 0) return 0;
  const schema = payloadSchema("charges");
  const jobs = batches.map((chargeIds) => ({
    name: JOB_NAMES.charges,
    data: schema.parse({ chargeIds: [...chargeIds] }),
  }));
  await queues.queue("charges").addBulk(jobs);
  return jobs.length;
}

export function enqueueInvoice(
  queues: QueueSource,
  payload: PayloadInputOf<"invoices">,
  options: EnqueueOptions = {},
): Promise<string> {
  return enqueue(queues, "invoices", payload, (p) => invoiceJobId(p.chargeId), options);
}

/**
 * Hands a status check to its worker under `status-check-<check>`, unless one waits or runs. A
 * failed one (its retries ran out) is replaced: the check reads its work from PostgreSQL again, so
 * running it anew is safe, and a retained failure must not hold the id for a week.
 */
export async function enqueueStatusCheck(queues: QueueSource, check: StatusCheck): Promise<void> {
  const jobId = statusCheckJobId(check);
  if (await makeWayForJob(queues.queue("status-checks"), jobId)) {
    await enqueue(queues, "status-checks", { check }, () => jobId, {});
  }
}

export function enqueueTokenDeactivation(
  queues: QueueSource,
  payload: PayloadInputOf<"token-deactivation">,
  options: EnqueueOptions = {},
): Promise<string> {
  return enqueue(
    queues,
    "token-deactivation",
    payload,
    (p) => tokenDeactivationJobId(p.paymentMethodId),
    options,
  );
}
