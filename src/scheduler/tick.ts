import { defaultQuietPeriodMs } from "../charging/index.js";
import type { EngineContext } from "../context/index.js";
import { applyScheduledPlanChanges } from "../plan-changes/index.js";
import { STATUS_CHECKS, type StatusCheck } from "../queue/index.js";
import { billDueSubscriptions } from "./bill-due-subscriptions.js";
import { billUsage } from "./bill-usage.js";
import { billUsageThresholds } from "./bill-usage-thresholds.js";
import { dispatchDueCharges } from "./dispatch-due-charges.js";
import { dispatchInvoices } from "./dispatch-invoices.js";
import { dispatchResumedCharges } from "./dispatch-resumed-charges.js";
import { dispatchStuckCharges } from "./dispatch-stuck-charges.js";
import { dispatchTokenDeactivations } from "./dispatch-token-deactivations.js";
import { leaseCutoff, leaseSeconds } from "./hand-out.js";
import { handOutStatusChecks } from "./status-checks.js";
import { sweepUsageHourly } from "./sweep-usage-hourly.js";
import { tickWork } from "./tick-work.js";
import { askForWork } from "./work-probe.js";

/**
 * One pass of the billing scheduler. It only finds due work in Postgres and fans it out; the
 * workers do the work. Every step is idempotent, so ticks may overlap, repeat, or run in several
 * processes at once, and a tick after a Redis wipe or a restart rebuilds every lost job:
 *
 *   0. carry out plan changes scheduled for the end of a period that has ended (plan-changes/);
 *   1. bill subscriptions whose next_billing_at has come (one charge per period; trials end into
 *      their first charge; cancel_at_period_end cancels instead), handing each batch's charges to
 *      the queue as soon as it is billed;
 *   1b. charge the usage of periods closed USAGE_GRACE_HOURS ago, once each (bill-usage.ts), and at
 *      most once an hour per process the usage upkeep: partitions, dedupe keys (sweep-usage-hourly.ts);
 *   2. hand out charges whose next attempt is due and that are not handed out yet, or whose
 *      dispatch is overdue or lost (hand-out.ts: the dispatch is recorded in Postgres);
 *   3. hand out charges whose collection resumes on a new card;
 *   4. hand out again charges stuck in processing with an old open attempt (crashed worker), to be
 *      reconciled;
 *   5. enqueue the invoice of uncollectible charges that have none, or whose invoice is pending;
 *   6. enqueue the stop of every live card of a canceled subscription that nothing live charges;
 *   7–10. hand to the status-check worker (status-checks.ts) each check that has work: refunds
 *      left requested or unknown past the quiet period, reconciled from CheckStatus; attempts closed
 *      as "not found" due a late check, and any payment the gateway took late; duplicate payments
 *      without a live refund (late-payments/); enrolments pending past ENROLLMENT_PENDING_HOURS;
 *      payment links due their next step: a reminder, or the dunning policy's terminal action once
 *      reminders ran out (payment-links/).
 *
 * While the gateway circuit breaker is open (breaker/) the tick stops what takes money or condemns
 * someone, until an operator resumes collection: nothing is billed or handed out to be charged
 * (0–3), no invoice is created (5), no card stopped (6), no payment link's collection ended (10,
 * held by the check itself).
 * Every read goes on, and so does the refund of a duplicate: charges with an open attempt are
 * reconciled (4: their job asks CheckStatus and sends nothing new), refunds reconciled (7), late
 * payments found, applied and their duplicates refunded (8), enrolments settled (9), payment links'
 * checkouts asked about and their reminders sent (10: paying a link is the customer's own act).
 * A gateway that applies payments late is what opens the breaker on "not found"; the payments it
 * then applies must not wait for an operator, or customers who paid keep unpaid charges and the
 * periods charged twice stay unrefunded.
 *
 * Before the steps, one statement asks PostgreSQL which of them have work (work-probe.ts, with each
 * step's own sources: tick-work.ts) and whether the breaker is open; a step with none is skipped,
 * so an idle tick costs that statement and the queue's job counts. No step makes work for a later
 * one of the same tick that it does not hand out itself.
 *
 * "Now" is read once from the billing clock, so the whole pass agrees on it (a caller with a shared
 * clock refreshes it first: startTickWorker does).
 */
export interface TickOptions {
  /** Rows per transaction; default BILLING_BATCH_SIZE. */
  readonly batchSize?: number;
  /** Periods billed per subscription and tick when it fell behind; default 12. */
  readonly maxPeriodsPerSubscription?: number;
  /** Age of an open attempt that marks its worker as gone; default the quiet period (quiet-period.ts). */
  readonly stuckAfterMs?: number;
  /** Age of a dispatch after which a still-waiting charge is handed out again; default CHARGE_REDISPATCH_AFTER_SECONDS. */
  readonly redispatchAfterMs?: number;
}

export interface TickResult {
  /** Charges created: periods that began, and usage billed (at its period's close, or in parts). */
  chargesCreated: number;
  /** Charges handed to the queue: billed now, due for an attempt, or resuming on a new card. */
  chargesEnqueued: number;
  /** Charges stuck in processing handed to the queue again, to be reconciled. */
  reenqueued: number;
  invoicesEnqueued: number;
  /** Stops of canceled subscriptions' cards queued again (their job was lost). */
  tokenDeactivationsEnqueued: number;
  /** Subscriptions canceled at the end of their period. */
  subscriptionsCanceled: number;
  /** Status checks that found work, each now with a job for their worker (status-checks.ts). */
  statusChecks: StatusCheck[];
  /** The gateway circuit breaker is open: only reads and refunds of duplicates ran (breaker/). */
  paused: boolean;
}

/** The steps that take money or condemn someone, held while the breaker is open. */
const HELD_STEPS: ReadonlySet<string> = new Set([
  "planChanges",
  "billing",
  "usage",
  "parts",
  "due",
  "resumed",
  "invoices",
  "cards",
]);

const NO_BILLING = { chargesCreated: 0, chargesDispatched: 0, subscriptionsCanceled: 0 } as const;
const NO_USAGE = { chargesCreated: 0, chargesDispatched: 0 } as const;
const NO_PARTS = { partsCreated: 0, partsDispatched: 0 } as const;

export const DEFAULT_MAX_PERIODS_PER_SUBSCRIPTION = 12;

export async function runBillingTick(
  ctx: Pick<EngineContext, "db" | "clock" | "queues" | "logger" | "config">,
  options: TickOptions = {},
): Promise<TickResult> {
  const sql = ctx.db.$client;
  const now = ctx.clock.now();
  const batchSize = options.batchSize ?? ctx.config.BILLING_BATCH_SIZE;
  const stuckAfterMs = options.stuckAfterMs ?? defaultQuietPeriodMs(ctx.config);
  // Before billing adds jobs: an empty queue now means every earlier dispatch was lost.
  const { seconds, queueLost } = await leaseSeconds(
    ctx,
    options.redispatchAfterMs ?? ctx.config.CHARGE_REDISPATCH_AFTER_SECONDS * 1000,
  );
  const cutoff = leaseCutoff(sql, seconds);
  const work = tickWork(sql, {
    now,
    cutoff,
    stuckAfterMs,
    refundQuietPeriodMs: defaultQuietPeriodMs(ctx.config),
    enrollmentPendingHours: ctx.config.ENROLLMENT_PENDING_HOURS,
  });
  const { has, cutoff: leaseEnd } = await askForWork(sql, work, cutoff);
  const lease = { cutoff: leaseEnd, queueLost };
  const { paused } = has;
  if (paused) {
    ctx.logger.warn(
      { component: "scheduler" },
      "billing tick: the gateway circuit breaker is open; only reads and refunds of duplicates run",
    );
  }
  // What takes money or condemns waits while the breaker is open; the rest runs when it has work.
  const run = (step: keyof typeof work) => has[step] && !(paused && HELD_STEPS.has(step));
  if (run("planChanges")) await applyScheduledPlanChanges(ctx, { now, batchSize });
  const billing = run("billing")
    ? await billDueSubscriptions(ctx, {
        now,
        batchSize,
        maxPeriodsPerSubscription: options.maxPeriodsPerSubscription ?? DEFAULT_MAX_PERIODS_PER_SUBSCRIPTION,
      })
    : NO_BILLING;
  const usage = run("usage") ? await billUsage(ctx, { now, batchSize }) : NO_USAGE;
  const parts = run("parts") ? await billUsageThresholds(ctx, { now, batchSize }) : NO_PARTS;
  await sweepUsageHourly(ctx);
  const due = run("due") ? await dispatchDueCharges(ctx, { now, batchSize, lease }) : 0;
  const resumed = run("resumed") ? await dispatchResumedCharges(ctx, { now, batchSize, lease }) : 0;
  const reenqueued = run("stuck") ? await dispatchStuckCharges(ctx, { batchSize, stuckAfterMs, lease }) : 0;
  const invoicesEnqueued = run("invoices") ? await dispatchInvoices(ctx, { batchSize }) : 0;
  const tokenDeactivationsEnqueued = run("cards") ? await dispatchTokenDeactivations(ctx, { batchSize }) : 0;
  const statusChecks = await handOutStatusChecks(ctx, STATUS_CHECKS.filter(run));
  const result: TickResult = {
    chargesCreated: billing.chargesCreated + usage.chargesCreated + parts.partsCreated,
    chargesEnqueued:
      billing.chargesDispatched + usage.chargesDispatched + parts.partsDispatched + due + resumed,
    reenqueued,
    invoicesEnqueued,
    tokenDeactivationsEnqueued,
    subscriptionsCanceled: billing.subscriptionsCanceled,
    statusChecks,
    paused,
  };
  ctx.logger.debug({ component: "scheduler", now: now.toISO(), ...result }, "billing tick");
  return result;
}
