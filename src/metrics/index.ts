/**
 * Prometheus metrics (prom-client): the process's registry, the engine's metrics and the small
 * server a worker process uses to expose them. Foundations only: any layer may count.
 */
export { metricsBearerMatches } from "./auth.js";
export {
  type ChargeAttemptOutcome,
  countChargeAttempt,
  countReconcile,
  countWebhookDelivery,
  type GatewayCallOutcome,
  type MetricRecord,
  observeGatewayCall,
  type ReconcileOutcome,
  recordTickRun,
  redirectMetrics,
  replayMetric,
  type TickRunOutcome,
  type WebhookDeliveryResult,
} from "./metrics.js";
export { collectProcessMetrics, registry } from "./registry.js";
export { type MetricsServer, type MetricsServerOptions, startMetricsServer } from "./server.js";
