import { collectDefaultMetrics, Registry } from "prom-client";

/**
 * The process's one Prometheus registry: every engine metric (metrics.ts) is registered here when
 * this module loads, so a counter incremented by a worker and the /metrics that shows it are the
 * same object. Each process has its own: counters are per process, and Prometheus sums them.
 */
export const registry = new Registry();

let processMetrics = false;

/**
 * Adds Node's process metrics (CPU, memory, event-loop lag, GC, handles) to the registry. Called by
 * whatever serves /metrics, so a one-shot CLI command does not start the event-loop monitor.
 * Idempotent: prom-client refuses a metric registered twice.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  collectDefaultMetrics({ register: registry });
  processMetrics = true;
}
