import { eq } from "drizzle-orm";
import type { Db, Tx } from "../db/index.js";
import { webhookDeliveries, webhookEndpoints } from "../db/schema/index.js";
import { buildWebhookBody, type WebhookBodySource } from "./webhook-body.js";

/**
 * The transactional outbox for webhooks: one pending delivery per enabled endpoint, written by
 * the transaction that records the event. Nothing is sent here. A rolled-back change therefore
 * never produces a webhook, and a committed one always has its deliveries waiting in Postgres for
 * the dispatcher, whatever happens to Redis or to the process in between.
 *
 * The delivery is due at the event's billing-clock time, so under a controllable clock a webhook
 * goes out when the simulated moment has come, like everything else the engine schedules.
 * Returns how many deliveries were created.
 */
export async function addWebhookDeliveries(tx: Db | Tx, event: WebhookBodySource): Promise<number> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.enabled, true));
  if (endpoints.length === 0) return 0;
  const payload = buildWebhookBody(event);
  const dueAt = event.occurredAt.toJSDate();
  await tx.insert(webhookDeliveries).values(
    endpoints.map((endpoint) => ({
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: event.type,
      payload,
      nextAttemptAt: dueAt,
    })),
  );
  return endpoints.length;
}
