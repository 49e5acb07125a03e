import type { DateTime } from "luxon";
import type { WebhookEventType } from "./types.js";

/**
 * The JSON body a merchant's endpoint receives, frozen into the delivery row when the event is
 * recorded so that every retry sends the same bytes' worth of facts:
 *
 *   { "id": "evt_42", "type": "charge.succeeded", "created_at": "2025-01-01T00:00:00.000Z",
 *     "data": { "object": { "object": "charge", … }, "subscription_id": "…", "charge_id": "…", … } }
 *
 * `data.object`, the charge or subscription a charge.* or subscription.* event is about, is not
 * built here: the dispatcher adds it when the delivery first goes out (src/webhooks/attach-objects.ts),
 * which keeps recording, the charge path, free of reads.
 *
 * `id` is stable across retries, so receivers deduplicate on it (delivery is at least once).
 */
export type WebhookEventBody = {
  id: string;
  type: WebhookEventType;
  /** When the fact happened, on the billing clock, as ISO 8601 UTC. */
  created_at: string;
  data: Record<string, unknown>;
};

export interface WebhookBodySource {
  id: number;
  type: WebhookEventType;
  occurredAt: DateTime;
  subscriptionId?: string | null;
  customerId?: string | null;
  chargeId?: string | null;
  data?: Record<string, unknown>;
}

/** The public id of an event: opaque to merchants, so the numeric cursor can change shape later. */
export function webhookEventId(eventId: number): string {
  return `evt_${eventId}`;
}

export function buildWebhookBody(event: WebhookBodySource): WebhookEventBody {
  // The event's own columns say what it is about; they win over same-named keys in its data.
  const subjects: Record<string, string> = {};
  if (event.subscriptionId) subjects.subscription_id = event.subscriptionId;
  if (event.customerId) subjects.customer_id = event.customerId;
  if (event.chargeId) subjects.charge_id = event.chargeId;
  return {
    id: webhookEventId(event.id),
    type: event.type,
    created_at: event.occurredAt.toJSDate().toISOString(),
    data: { ...event.data, ...subjects },
  };
}
