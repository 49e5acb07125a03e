import { collectionPaused } from "../breaker/index.js";
import { defaultQuietPeriodMs } from "../charging/index.js";
import { type EngineContext, refreshClock } from "../context/index.js";
import { sweepPendingEnrollments } from "../enrollment/index.js";
import { checkLatePayments, refundDuplicates } from "../late-payments/index.js";
import { remindPaymentLinks } from "../payment-links/index.js";
import {
  type BillingWorker,
  enqueueStatusCheck,
  QUEUE_NAMES,
  STATUS_CHECKS,
  type StatusCheck,
  statusCheckJobId,
} from "../queue/index.js";
import { dispatchRefunds } from "./dispatch-refunds.js";

/**
 * Rule: the sweeps that ask the gateway about money already sent run in a worker, not in the tick:
 * refunds left open (dispatch-refunds.ts), attempts due a late check, duplicate payments to refund
 * (late-payments/), enrolments left pending (enrollment/) and payment links due their next step,
 * whose open checkout is asked about before a reminder (payment-links/; while the breaker is open
 * it reminds but ends no charge, read here as it runs). Each makes a gateway call per row,
 * so a slow gateway would otherwise hold up billing and dispatching for every call of the batch.
 * The tick hands a check out when its one question finds work for it (tick.ts); the job id keeps
 * one per check waiting at a time (queue/enqueue.ts). A check reads its rows from PostgreSQL when it
 * runs, so a lost job costs a delay: the next tick that still finds the work hands it out again.
 * A late check that finds duplicates refunds them in the same run, as the tick did.
 */
export interface StatusCheckCounts {
  /** Refunds left requested or unknown that CheckStatus settled. */
  refundsReconciled: number;
  /** Watched attempts asked about again, and those the gateway turned out to have paid late. */
  lateChecks: number;
  latePaymentsFound: number;
  /** Duplicate payments whose refund the gateway took. */
  duplicatesRefunded: number;
  /** Enrolments left pending past ENROLLMENT_PENDING_HOURS that were settled, expired or failed. */
  enrollmentsSwept: number;
  /** Payment links sent again, and charges by link whose reminders ran out unpaid. */
  linkReminders: number;
  linksEnded: number;
}

export const NO_CHECKS: StatusCheckCounts = {
  refundsReconciled: 0,
  lateChecks: 0,
  latePaymentsFound: 0,
  duplicatesRefunded: 0,
  enrollmentsSwept: 0,
  linkReminders: 0,
  linksEnded: 0,
};

type Ctx = Pick<
  EngineContext,
  "db" | "clock" | "gateway" | "vault" | "logger" | "config" | "publicUrl" | "dunning"
>;

export async function runStatusCheck(ctx: Ctx, check: StatusCheck): Promise<StatusCheckCounts> {
  const batchSize = ctx.config.BILLING_BATCH_SIZE;
  switch (check) {
    case "refunds": {
      const quietPeriodMs = defaultQuietPeriodMs(ctx.config);
      return { ...NO_CHECKS, refundsReconciled: await dispatchRefunds(ctx, { batchSize, quietPeriodMs }) };
    }
    case "late-payments": {
      const late = await checkLatePayments(ctx, { batchSize });
      const duplicates = late.found.duplicate > 0 ? await refundDuplicates(ctx, { batchSize }) : 0;
      return {
        ...NO_CHECKS,
        lateChecks: late.checked,
        latePaymentsFound: late.found.paid + late.found.duplicate + late.found.held,
        duplicatesRefunded: duplicates,
      };
    }
    case "duplicates":
      return { ...NO_CHECKS, duplicatesRefunded: await refundDuplicates(ctx, { batchSize }) };
    case "enrollments": {
      const swept = await sweepPendingEnrollments(ctx, { batchSize });
      return { ...NO_CHECKS, enrollmentsSwept: swept.settled + swept.expired + swept.failed };
    }
    case "links": {
      const holdEnds = await collectionPaused(ctx.db.$client);
      const links = await remindPaymentLinks(ctx, { batchSize, holdEnds });
      return { ...NO_CHECKS, linkReminders: links.reminded, linksEnded: links.ended };
    }
  }
}

/**
 * Gives each check its job unless one waits or runs. A failed enqueue is logged, not thrown: the
 * next tick finds the same work and tries again. Returns the checks that now have a job.
 */
export async function handOutStatusChecks(
  ctx: Pick<EngineContext, "queues" | "logger">,
  checks: readonly StatusCheck[],
): Promise<StatusCheck[]> {
  const handed: StatusCheck[] = [];
  for (const check of checks) {
    try {
      await enqueueStatusCheck(ctx.queues, check);
      handed.push(check);
    } catch (err) {
      ctx.logger.warn({ err, check }, "could not hand out a status check; the next tick tries again");
    }
  }
  return handed;
}

/**
 * Runs here, now, the checks whose job waits, taking each job off the queue first (one a worker
 * holds is left to it): for a one-off tick with no worker (`billing scheduler --once`). Returns
 * what they did, added up.
 */
export async function runWaitingStatusChecks(
  ctx: Ctx & Pick<EngineContext, "queues">,
): Promise<StatusCheckCounts> {
  const queue = ctx.queues.queue(QUEUE_NAMES.statusChecks);
  const total = { ...NO_CHECKS };
  for (const check of STATUS_CHECKS) {
    const job = await queue.getJob(statusCheckJobId(check));
    if (!job || !WAITING.has(await job.getState())) continue;
    try {
      await job.remove();
    } catch {
      continue; // a worker took it meanwhile
    }
    const counts = await runStatusCheck(ctx, check);
    for (const key of Object.keys(total) as (keyof StatusCheckCounts)[]) total[key] += counts[key];
  }
  return total;
}

const WAITING: ReadonlySet<string> = new Set(["waiting", "prioritized", "delayed"]);

/** The worker of the status checks: one job of each check at a time, on the shared billing clock. */
export function startStatusCheckWorker(ctx: EngineContext): BillingWorker {
  return ctx.queues.worker(
    QUEUE_NAMES.statusChecks,
    async ({ check }) => {
      await refreshClock(ctx.clock);
      const counts = await runStatusCheck(ctx, check);
      ctx.logger.debug({ component: "status-checks", check, ...counts }, "status check ran");
      return counts;
    },
    { concurrency: STATUS_CHECKS.length },
  );
}
