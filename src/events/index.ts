export { type EventInput, type RecordedEvent, recordEvent } from "./record.js";
export { EVENT_TYPES, isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./types.js";
export { type WebhookEventBody, webhookEventId } from "./webhook-body.js";
