import { Counter, Histogram } from "prom-client";
import { registry } from "./registry.js";

/**
 * Every metric the engine's code increments, in one place (the README's "Metrics" table lists them
 * with the gauges read at scrape time in src/http/metrics-gauges.ts). Rules:
 * - names start with `billing_`; durations are seconds, counters end in `_total`;
 * - every label takes its values from a small fixed set (outcomes below, gateway operation names,
 *   the decline reasons of src/billing/decline.ts), never an id or free text: each label value is
 *   a time series;
 * - a counter moves only once the outcome it counts is committed, never before the write;
 * - label sets known in advance start at 0, so rate() works from the first event.
 */

/** What an attempt became: the charge_attempts status it was written with. */
export type ChargeAttemptOutcome =
  | "approved"
  | "declined"
  | "unknown"
  | "failed_permanently"
  | "needs_review";

/** ok: the gateway replied below 500; error: a 5xx or no connection or reply; timeout: GATEWAY_TIMEOUT_MS. */
export type GatewayCallOutcome = "ok" | "error" | "timeout";

/** What reconciling an open attempt with CheckStatus decided, once written. */
export type ReconcileOutcome = "approved" | "declined" | "not_found" | "still_unknown" | "held";

export type WebhookDeliveryResult = "delivered" | "retry" | "failed";

/** As tick_runs records it (src/scheduler/tick-runs.ts). */
export type TickRunOutcome = "ok" | "paused" | "failed";

const registers = [registry];

const chargeAttempts = new Counter({
  name: "billing_charge_attempts_total",
  help: "Charge attempts by the outcome written for them; decline_code is the decline reason (declined only, else empty)",
  labelNames: ["outcome", "decline_code"] as const,
  registers,
});

const gatewayRequestDuration = new Histogram({
  name: "billing_gateway_request_duration_seconds",
  help: "Every HTTP call to the payment gateway, by operation and outcome (ok, error, timeout)",
  labelNames: ["operation", "outcome"] as const,
  // Up to past the 15 s default timeout; a healthy call is well under a second.
  buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
  registers,
});

const reconciles = new Counter({
  name: "billing_reconcile_total",
  help: "Attempts with an unknown outcome reconciled with CheckStatus, by what was decided",
  labelNames: ["outcome"] as const,
  registers,
});

const webhookDeliveries = new Counter({
  name: "billing_webhook_deliveries_total",
  help: "Outgoing webhook delivery attempts by result (delivered, retry scheduled, failed for good)",
  labelNames: ["result"] as const,
  registers,
});

const tickDuration = new Histogram({
  name: "billing_tick_duration_seconds",
  help: "Duration of billing ticks run by this process",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers,
});

const tickRuns = new Counter({
  name: "billing_tick_runs_total",
  help: "Billing ticks run by this process, by outcome (ok, paused by the breaker, failed)",
  labelNames: ["outcome"] as const,
  registers,
});

for (const outcome of ["approved", "unknown", "failed_permanently", "needs_review"] as const)
  chargeAttempts.inc({ outcome, decline_code: "" }, 0);
for (const outcome of ["approved", "declined", "not_found", "still_unknown", "held"] as const)
  reconciles.inc({ outcome }, 0);
for (const result of ["delivered", "retry", "failed"] as const) webhookDeliveries.inc({ result }, 0);
for (const outcome of ["ok", "paused", "failed"] as const) tickRuns.inc({ outcome }, 0);

/** One call of a recording function below, as a worker thread sends it to the process (replayMetric). */
export type MetricRecord =
  | { name: "countChargeAttempt"; args: Parameters<typeof countChargeAttempt> }
  | { name: "observeGatewayCall"; args: Parameters<typeof observeGatewayCall> }
  | { name: "countReconcile"; args: Parameters<typeof countReconcile> }
  | { name: "countWebhookDelivery"; args: Parameters<typeof countWebhookDelivery> }
  | { name: "recordTickRun"; args: Parameters<typeof recordTickRun> };

/**
 * Where this thread's recordings go instead of its registry. A worker thread has a registry of its
 * own that no /metrics shows, so it sends each recording to the process, which replays it in the
 * registry it serves: counters and histograms stay whole, and the thread counts nothing twice.
 */
let redirect: ((record: MetricRecord) => void) | undefined;

export function redirectMetrics(to: (record: MetricRecord) => void): void {
  redirect = to;
}

/** Sends `record` away when this thread's recordings are redirected; true when it was. */
function redirected(record: MetricRecord): boolean {
  if (!redirect) return false;
  redirect(record);
  return true;
}

/** Records, in this thread's registry, what a worker thread recorded (redirectMetrics). */
export function replayMetric(record: MetricRecord): void {
  switch (record.name) {
    case "countChargeAttempt":
      countChargeAttempt(...record.args);
      break;
    case "observeGatewayCall":
      observeGatewayCall(...record.args);
      break;
    case "countReconcile":
      countReconcile(...record.args);
      break;
    case "countWebhookDelivery":
      countWebhookDelivery(...record.args);
      break;
    case "recordTickRun":
      recordTickRun(...record.args);
      break;
  }
}

/**
 * One attempt's written outcome. `declineReason` is the reason explainDecline (src/billing) gives,
 * a fixed set; it is kept only for declines.
 */
export function countChargeAttempt(outcome: ChargeAttemptOutcome, declineReason = ""): void {
  if (redirected({ name: "countChargeAttempt", args: [outcome, declineReason] })) return;
  chargeAttempts.inc({ outcome, decline_code: outcome === "declined" ? declineReason : "" });
}

/** `operation` is a GatewayOperation name (src/gateway/operations.ts), e.g. legacy.getNewPayment. */
export function observeGatewayCall(operation: string, outcome: GatewayCallOutcome, seconds: number): void {
  if (redirected({ name: "observeGatewayCall", args: [operation, outcome, seconds] })) return;
  gatewayRequestDuration.observe({ operation, outcome }, seconds);
}

export function countReconcile(outcome: ReconcileOutcome): void {
  if (redirected({ name: "countReconcile", args: [outcome] })) return;
  reconciles.inc({ outcome });
}

export function countWebhookDelivery(result: WebhookDeliveryResult): void {
  if (redirected({ name: "countWebhookDelivery", args: [result] })) return;
  webhookDeliveries.inc({ result });
}

export function recordTickRun(outcome: TickRunOutcome, seconds: number): void {
  if (redirected({ name: "recordTickRun", args: [outcome, seconds] })) return;
  tickRuns.inc({ outcome });
  tickDuration.observe(seconds);
}
