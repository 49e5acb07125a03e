export { type EventInput, type RecordedEvent, recordEvent } from "./record.js";
export { recordEvents } from "./record-many.js";
export { EVENT_TYPES, isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./types.js";
export { type WebhookEventBody, webhookEventId } from "./webhook-body.js";
