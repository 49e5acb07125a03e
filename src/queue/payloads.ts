import { z } from "zod";
import type { QueueName } from "./names.js";

/*
 * Job payloads carry only domain ids: the row in Postgres is the truth, and a worker reads it fresh
 * when the job runs. Objects strip unknown keys rather than reject them, so a producer that is one
 * deploy ahead (an added field) does not make an older worker fail its jobs as unrecoverable.
 */

export const tickPayload = z.object({
  scheduledAt: z.iso.datetime({ offset: true }).optional(),
});

/** The most charges one charge job may carry (CHARGE_BATCH_SIZE is capped at this). */
export const MAX_CHARGE_BATCH = 1000;

/**
 * A charge job carries a batch of charge ids. A job written by an older producer as
 * `{ chargeId }` is read as a batch of one, so a rolling deploy strands nothing.
 */
export const chargePayload = z.preprocess(
  (value) =>
    value !== null && typeof value === "object" && "chargeId" in value && !("chargeIds" in value)
      ? { chargeIds: [(value as { chargeId: unknown }).chargeId] }
      : value,
  z.object({ chargeIds: z.array(z.uuid()).min(1).max(MAX_CHARGE_BATCH) }),
);

export const invoicePayload = z.object({ chargeId: z.uuid() });

export const tokenDeactivationPayload = z.object({ paymentMethodId: z.uuid() });

export const webhookPayload = z.object({ deliveryId: z.uuid() });

export const messagePayload = z.object({ messageId: z.uuid() });

/** The sweeps that ask the gateway about money already sent, which the tick hands to a worker. */
export const STATUS_CHECKS = ["refunds", "late-payments", "duplicates", "enrollments", "links"] as const;
export type StatusCheck = (typeof STATUS_CHECKS)[number];

export const statusCheckPayload = z.object({ check: z.enum(STATUS_CHECKS) });

export const payloadSchemas = {
  "billing-tick": tickPayload,
  charges: chargePayload,
  invoices: invoicePayload,
  "token-deactivation": tokenDeactivationPayload,
  webhooks: webhookPayload,
  messages: messagePayload,
  "status-checks": statusCheckPayload,
} as const satisfies Record<QueueName, z.ZodType>;

/** The payload a worker of queue `N` receives, after validation. */
export type PayloadOf<N extends QueueName> = z.output<(typeof payloadSchemas)[N]>;

/** What a producer may pass for queue `N`, before validation. */
export type PayloadInputOf<N extends QueueName> = z.input<(typeof payloadSchemas)[N]>;

export type TickPayload = PayloadOf<"billing-tick">;
export type ChargePayload = PayloadOf<"charges">;
export type InvoicePayload = PayloadOf<"invoices">;
export type TokenDeactivationPayload = PayloadOf<"token-deactivation">;
export type WebhookPayload = PayloadOf<"webhooks">;
export type MessagePayload = PayloadOf<"messages">;
export type StatusCheckPayload = PayloadOf<"status-checks">;

/** The schema of queue `N`, typed so that parsing yields that queue's payload type. */
export function payloadSchema<N extends QueueName>(name: N): z.ZodType<PayloadOf<N>, PayloadInputOf<N>> {
  const schemas: { [K in QueueName]: z.ZodType<PayloadOf<K>, PayloadInputOf<K>> } = payloadSchemas;
  return schemas[name];
}
