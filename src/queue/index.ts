export type {
  BackendKind,
  BillingJob,
  BillingQueue,
  BillingQueueEvents,
  BillingWorker,
  WorkerSettings,
} from "./backend.js";
export { type BriefError, briefError, isConnectionError } from "./connection-error.js";
export {
  type ConnectionErrorLog,
  type ConnectionErrorLogOptions,
  connectionErrorLog,
} from "./connection-error-log.js";
export { type QueueDepth, queueDepth, queueDepths } from "./depths.js";
export {
  type ChargeEnqueueOptions,
  type EnqueueOptions,
  enqueueCharge,
  enqueueChargeBatches,
  enqueueInvoice,
  enqueueStatusCheck,
  enqueueTokenDeactivation,
  type QueueSource,
} from "./enqueue.js";
export { queueSystemOptionsFromConfig } from "./from-config.js";
export {
  type BudgetLimits,
  createGatewayBudget,
  type Reservation,
  type SharedBudget,
} from "./gateway-budget.js";
export { createPostgresGatewayBudget } from "./gateway-budget-postgres.js";
export {
  type Closable,
  type GracefulShutdownOptions,
  gracefulShutdown,
  type ShutdownHandle,
} from "./graceful-shutdown.js";
export {
  chargeJobId,
  invoiceJobId,
  messageJobId,
  statusCheckJobId,
  tokenDeactivationJobId,
  webhookJobId,
} from "./job-ids.js";
export { DEFAULT_RETRY_POLICY, defaultJobOptions, type RetryPolicy } from "./job-options.js";
export { isJobPresent, type JobStateReader, makeWayForJob } from "./job-presence.js";
export { ALL_QUEUE_NAMES, JOB_NAMES, QUEUE_NAMES, type QueueName } from "./names.js";
export {
  type ChargePayload,
  chargePayload,
  type InvoicePayload,
  invoicePayload,
  MAX_CHARGE_BATCH,
  type MessagePayload,
  messagePayload,
  type PayloadInputOf,
  type PayloadOf,
  payloadSchema,
  payloadSchemas,
  STATUS_CHECKS,
  type StatusCheck,
  type StatusCheckPayload,
  statusCheckPayload,
  type TickPayload,
  type TokenDeactivationPayload,
  tickPayload,
  tokenDeactivationPayload,
  type WebhookPayload,
  webhookPayload,
} from "./payloads.js";
export {
  createQueueSystem,
  type QueueSystem,
  type QueueSystemOptions,
  type SchedulerTemplate,
} from "./queue-system.js";
export { assertRedisReachable, RedisUnreachableError } from "./redis-reachable.js";
export { runLoopGuard, SPIN_LIMIT } from "./run-loop-guard.js";
export type { PayloadProcessor } from "./validating-processor.js";
