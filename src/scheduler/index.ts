/**
 * The billing scheduler: finds due work in Postgres and fans it out to the queues. It charges
 * nothing itself; see src/charging.
 */
export { type BillingStep, type DueSubscription, planBilling } from "./billing-plan.js";
export {
  BILLING_TICK_SCHEDULER_ID,
  keepBillingTick,
  registerBillingTick,
  startTickWorker,
} from "./register.js";
export {
  runStatusCheck,
  runWaitingStatusChecks,
  type StatusCheckCounts,
  startStatusCheckWorker,
} from "./status-checks.js";
export {
  DEFAULT_MAX_PERIODS_PER_SUBSCRIPTION,
  runBillingTick,
  type TickOptions,
  type TickResult,
} from "./tick.js";
export {
  BILLING_TICK,
  lastTickRun,
  recordTickEnd,
  recordTickStart,
  type TickOutcome,
  type TickRun,
} from "./tick-runs.js";
