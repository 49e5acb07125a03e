import { z } from "zod";
import { storableText } from "../../billing/index.js";
import type { WebhookEndpointSummary } from "../../webhooks/index.js";
import { iso, timestamp } from "./common.js";

export const webhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    enabled: z.boolean(),
    created_at: timestamp,
  })
  .meta({ id: "WebhookEndpoint" });

export const createdWebhookEndpointSchema = webhookEndpointSchema
  .extend({
    secret: z.string().describe("HMAC signing secret; shown only in this reply"),
  })
  .meta({ id: "CreatedWebhookEndpoint" });

export const createWebhookEndpointBody = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: "url must be an http(s) URL" }).check(storableText("url")),
});

export const disabledWebhookEndpointSchema = z.object({ id: z.uuid(), enabled: z.literal(false) });

export const webhookEndpointList = z.object({ data: z.array(webhookEndpointSchema) });

export function presentWebhookEndpoint(row: WebhookEndpointSummary): z.infer<typeof webhookEndpointSchema> {
  return { id: row.id, url: row.url, enabled: row.enabled, created_at: iso(row.createdAt) };
}
