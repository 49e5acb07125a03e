import { exponentOf } from "../../money/index.js";
import type { OpsSnapshot } from "../../ops/index.js";

/**
 * What the dashboard's charts draw (assets/ops.js), rendered into the page as JSON (snake_case, as
 * jsonScript writes it). Amounts stay integer minor units with the currency's exponent beside them,
 * so the browser formats them exactly.
 */
export function chartData(s: OpsSnapshot) {
  const funnelRetries = s.funnel.recoveredByRetry;
  return {
    currency: s.currency,
    exponent: exponentOf(s.currency),
    unit: s.range.unit,
    collections: {
      labels: s.collections.buckets.map((b) => b.start),
      collectedAmount: s.collections.buckets.map((b) => b.collected.amountMinor),
      refundedAmount: s.collections.buckets.map((b) => b.refunded.amountMinor),
      paidCount: s.collections.buckets.map((b) => b.paid.count),
      declinedCount: s.collections.buckets.map((b) => b.declined.count),
      unknownCount: s.collections.buckets.map((b) => b.unknown.count),
    },
    funnel: {
      labels: [
        "Entered dunning",
        ...funnelRetries.map((r) => `Recovered at retry ${r.retry}`),
        "Still retrying",
        "Held",
        "Invoiced",
      ],
      counts: [
        s.funnel.entered.count,
        ...funnelRetries.map((r) => r.count),
        s.funnel.inDunning.count,
        s.funnel.held.count,
        s.funnel.invoiced.count,
      ],
    },
    statuses: {
      labels: Object.keys(s.subscriptions.counts),
      counts: Object.values(s.subscriptions.counts),
    },
    queues: {
      labels: s.queue.queues.map((q) => q.queue),
      waiting: s.queue.queues.map((q) => q.waiting),
      active: s.queue.queues.map((q) => q.active),
      delayed: s.queue.queues.map((q) => q.delayed),
      failed: s.queue.queues.map((q) => q.failed),
    },
  };
}
