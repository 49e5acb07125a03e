/** Every BullMQ queue the engine uses. Workers and producers refer to queues only through these names. */
export const QUEUE_NAMES = {
  billingTick: "billing-tick",
  charges: "charges",
  invoices: "invoices",
  tokenDeactivation: "token-deactivation",
  webhooks: "webhooks",
  messages: "messages",
  statusChecks: "status-checks",
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export const ALL_QUEUE_NAMES: readonly QueueName[] = Object.values(QUEUE_NAMES);

/**
 * The BullMQ job name used on each queue. One job kind per queue, so the name only makes jobs
 * readable in dashboards and logs; routing is by queue.
 */
export const JOB_NAMES = {
  "billing-tick": "tick",
  charges: "charge",
  invoices: "invoice",
  "token-deactivation": "token-deactivation",
  webhooks: "webhook",
  messages: "message",
  "status-checks": "status-check",
} as const satisfies Record<QueueName, string>;
