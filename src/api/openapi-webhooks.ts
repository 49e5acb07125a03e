import { z } from "zod";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../events/index.js";
import {
  chargeEventSchema,
  DEFAULT_TOLERANCE_SECONDS,
  DEFAULT_WEBHOOK_RETRY_POLICY,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  objectKindOf,
  otherEventSchema,
  SIGNATURE_HEADER,
  subscriptionEventSchema,
} from "../webhooks/index.js";

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per public event type (WEBHOOK_EVENT_TYPES), what
 * the engine POSTs to a merchant's endpoint. The bodies refer to the zod schemas of
 * src/webhooks/object-schemas.ts, which the document lists under components like every schema
 * with an id, so the objects there are the API's own Charge and Subscription plus a few fields.
 */

const EVENT_SCHEMAS = {
  charge: chargeEventSchema,
  subscription: subscriptionEventSchema,
  none: otherEventSchema,
};

function refTo(schema: z.ZodType) {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error("a webhook body schema has no component id");
  return { $ref: `#/components/schemas/${id}` };
}

const header = (name: string, description: string) => ({
  name,
  in: "header" as const,
  required: true,
  schema: { type: "string" as const },
  description,
});

const HEADERS = [
  header(
    SIGNATURE_HEADER,
    `\`t=<unix seconds>,v1=<hex HMAC-SHA256>\`, keyed with the endpoint's secret over \`<t>.<raw body>\`; verify it on the raw bytes before parsing, and refuse a t more than ${DEFAULT_TOLERANCE_SECONDS} seconds from your clock`,
  ),
  header(
    EVENT_ID_HEADER,
    "The event's id (evt_…), as in the body: deduplicate on it, delivery is at least once",
  ),
  header(EVENT_TYPE_HEADER, "The event's type, as in the body"),
];

const asOfDelivery = (kind: string) =>
  ` data.object is the ${kind} as it was when the delivery first went out; the other data fields are the event's own, as of the event.`;

function pathItem(type: WebhookEventType) {
  const kind = objectKindOf(type);
  return {
    post: {
      summary: type,
      description: WEBHOOK_EVENT_TYPES[type] + (kind ? asOfDelivery(kind) : ""),
      parameters: HEADERS,
      security: [],
      requestBody: {
        required: true,
        content: { "application/json": { schema: refTo(EVENT_SCHEMAS[kind ?? "none"]) } },
      },
      responses: {
        "2XX": {
          description: `Received. Any other answer, or none in time, is retried with exponential backoff, ${DEFAULT_WEBHOOK_RETRY_POLICY.maxAttempts} attempts in all`,
        },
      },
    },
  };
}

export function webhookPathItems() {
  return Object.fromEntries(
    (Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[]).map((type) => [type, pathItem(type)]),
  );
}
