import type { DateTime } from "luxon";
import { type Db, sqlOf, type Tx } from "../db/index.js";
import { events } from "../db/schema/index.js";
import { changesEntitlements, entitlementChanges } from "../entitlements/changed-events.js";
import { addCustomerOutbox, speaksToCustomer } from "./customer-outbox.js";
import { addWebhookDeliveries } from "./outbox.js";
import { isWebhookEventType } from "./types.js";

/**
 * Appends one fact to the event log. Call it inside the transaction that makes the change it
 * records, so the log and the state can never disagree. `occurredAt` is the billing clock's time.
 *
 * A webhook-worthy type (see WEBHOOK_EVENT_TYPES) also gets its outgoing deliveries, and a type
 * that speaks to the customer its receipt, credit note or messages (customer-outbox.ts), in the
 * same transaction: the event and all it causes commit or roll back together.
 */
export interface EventInput {
  type: string;
  actor: string;
  occurredAt: DateTime;
  subscriptionId?: string | null;
  customerId?: string | null;
  chargeId?: string | null;
  data?: Record<string, unknown>;
}

export interface RecordedEvent {
  id: number;
  type: string;
}

async function insertEvent(tx: Db | Tx, input: EventInput): Promise<RecordedEvent> {
  const [row] = await tx
    .insert(events)
    .values({
      type: input.type,
      actor: input.actor,
      occurredAt: input.occurredAt.toJSDate(),
      subscriptionId: input.subscriptionId ?? null,
      customerId: input.customerId ?? null,
      chargeId: input.chargeId ?? null,
      data: input.data ?? {},
    })
    .returning({ id: events.id, type: events.type });
  if (!row) throw new Error(`event ${input.type} was not recorded`);
  return row;
}

export async function recordEvent(tx: Db | Tx, input: EventInput): Promise<RecordedEvent> {
  const { type } = input;
  const webhook = isWebhookEventType(type);
  const entitling = changesEntitlements(type);
  if (!webhook && !entitling && !speaksToCustomer(type)) return insertEvent(tx, input);
  // Several statements must be atomic even when the caller passed the pool rather than a
  // transaction; inside a caller's transaction this is a savepoint, which rolls back with it.
  return tx.transaction(async (inner) => {
    const event = await insertEvent(inner, input);
    if (webhook) await addWebhookDeliveries(inner, { ...input, id: event.id, type });
    await addCustomerOutbox(sqlOf(inner), [{ ...input, id: event.id }]);
    // What the change gives its customer now (src/entitlements/changed-events.ts), recorded after it.
    if (entitling) {
      for (const next of await entitlementChanges(sqlOf(inner), [input])) await recordEvent(inner, next);
    }
    return event;
  });
}
