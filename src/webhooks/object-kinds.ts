import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../events/index.js";

/**
 * Rule: a charge.* event carries its charge and a subscription.* event its subscription, as
 * `data.object` (event-objects.ts); the other events (invoice.created, message.*, …) carry their
 * facts alone. Named by prefix, so a new charge or subscription event carries its object unasked.
 */
export type ObjectKind = "charge" | "subscription";

export function objectKindOf(type: string): ObjectKind | null {
  if (type.startsWith("charge.")) return "charge";
  if (type.startsWith("subscription.")) return "subscription";
  return null;
}

/** The public event types that carry this kind of object (null: none). */
export function webhookTypesCarrying(kind: ObjectKind | null): WebhookEventType[] {
  return (Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[]).filter(
    (type) => objectKindOf(type) === kind,
  );
}
