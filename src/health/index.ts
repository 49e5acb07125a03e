/**
 * Health of the engine as an operator needs it: which dependency answers, whether the billing tick
 * runs, whether the circuit breaker holds collection, each with a reason a person can act on.
 */
export {
  CHECK_TIMEOUT_MS,
  type Check,
  type CheckName,
  type CheckResult,
  type CheckStatus,
  type Readiness,
  type ReadinessStatus,
  runChecks,
} from "./check.js";
export { type ReadinessOptions, readiness } from "./readiness.js";
export { judgeTick, stallLimitSeconds, type TickJudgement } from "./tick-check.js";
