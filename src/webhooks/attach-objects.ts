import { sql } from "drizzle-orm";
import { sqlOf, type Tx } from "../db/index.js";
import { events, webhookDeliveries } from "../db/schema/index.js";
import type { LinkSigner } from "../resources/index.js";
import { loadEventObjects } from "./event-objects.js";
import { type ObjectKind, objectKindOf } from "./object-kinds.js";

/**
 * Rule: the object a charge or subscription event carries is read when its delivery first goes
 * out, not when the event is recorded. Recording is the charge path (about 1,500 charges a second,
 * several events each), which this keeps free of any read per event; the dispatcher instead reads
 * every object its batch needs at once (event-objects.ts), only for endpoints that exist, and
 * writes each into its delivery's payload as data.object in one statement. The payload is then
 * frozen: every retry sends the same object, and the event's own facts stay as of the event.
 *
 * A delivery whose event names no charge or subscription goes without an object (its facts alone),
 * as do the other events (object-kinds.ts).
 */

/**
 * What the dispatcher selects of each due delivery, joined to its event, to know whether it still
 * needs its object and which: the event's own columns say what it is about.
 */
export const objectSubjectColumns = {
  eventType: webhookDeliveries.eventType,
  hasObject: sql<boolean>`${webhookDeliveries.payload} -> 'data' -> 'object' is not null`,
  chargeId: events.chargeId,
  subscriptionId: events.subscriptionId,
};

export interface DueDelivery {
  id: string;
  eventType: string;
  hasObject: boolean;
  chargeId: string | null;
  subscriptionId: string | null;
}

/** Writes data.object into the payloads of these (locked) deliveries that still lack it. */
export async function attachEventObjects(
  tx: Tx,
  signer: LinkSigner,
  due: readonly DueDelivery[],
): Promise<void> {
  const wanting = due.flatMap((delivery) => {
    const kind = delivery.hasObject ? null : objectKindOf(delivery.eventType);
    const id = kind === "charge" ? delivery.chargeId : delivery.subscriptionId;
    return kind && id ? [{ deliveryId: delivery.id, kind, id }] : [];
  });
  if (wanting.length === 0) return;
  const idsOf = (kind: ObjectKind) => [...new Set(wanting.filter((w) => w.kind === kind).map((w) => w.id))];
  const objects = await loadEventObjects(tx, signer, {
    charge: idsOf("charge"),
    subscription: idsOf("subscription"),
  });
  const found = wanting.flatMap(({ deliveryId, kind, id }) => {
    const object = objects[kind].get(id);
    return object ? [{ deliveryId, object: JSON.stringify(object) }] : [];
  });
  if (found.length === 0) return;
  await sqlOf(tx)`
    update webhook_deliveries d set payload = jsonb_set(d.payload, '{data,object}', o.object::jsonb)
    from unnest(${found.map((f) => f.deliveryId)}::uuid[], ${found.map((f) => f.object)}::text[])
      as o(id, object)
    where d.id = o.id`;
}
