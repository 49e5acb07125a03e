import { and, asc, eq, type SQL } from "drizzle-orm";
import type { Db } from "../db/index.js";
import { webhookDeliveries } from "../db/schema/index.js";

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookDeliveryStatus = WebhookDelivery["status"];

export interface DeliveryFilter {
  eventId?: number;
  endpointId?: string;
  status?: WebhookDeliveryStatus;
  /** Defaults to 100. */
  limit?: number;
}

/** Deliveries matching every filter given, oldest event first: what a merchant sees in a dashboard. */
export async function listDeliveries(db: Db, filter: DeliveryFilter = {}): Promise<WebhookDelivery[]> {
  const conditions: SQL[] = [];
  if (filter.eventId !== undefined) conditions.push(eq(webhookDeliveries.eventId, filter.eventId));
  if (filter.endpointId !== undefined) conditions.push(eq(webhookDeliveries.endpointId, filter.endpointId));
  if (filter.status !== undefined) conditions.push(eq(webhookDeliveries.status, filter.status));
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(...conditions))
    .orderBy(asc(webhookDeliveries.eventId), asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
    .limit(filter.limit ?? 100);
}
