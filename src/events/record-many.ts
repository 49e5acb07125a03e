import { pgTimestamp, type SqlRunner } from "../db/index.js";
import { entitlementChanges } from "../entitlements/changed-events.js";
import { addCustomerOutbox } from "./customer-outbox.js";
import type { EventInput } from "./record.js";
import { isWebhookEventType } from "./types.js";
import { buildWebhookBody } from "./webhook-body.js";

/**
 * Appends many facts to the event log in a few statements whatever their number: the events as one
 * multi-row insert, then the outbox deliveries of the webhook-worthy ones crossed with every enabled
 * endpoint in one INSERT … SELECT (no per-event endpoint lookup; none at all, and no body built,
 * when the insert's own answer says no endpoint is enabled, as outbox.ts's one-event form skips
 * them), then what the customer gets
 * (customer-outbox.ts: one statement per kind of document or message present). Call it inside the transaction
 * that makes the changes, exactly as recordEvent (record.ts), which stays the one-event form.
 *
 * Both statements are postgres.js tagged queries, so each connection prepares them once. Ids come
 * from the events sequence in insertion order (the rows are inserted in input order), so sorting
 * the returned ids pairs them back with the inputs. Returns the ids in input order.
 */
export async function recordEvents(sql: SqlRunner, inputs: readonly EventInput[]): Promise<number[]> {
  if (inputs.length === 0) return [];
  const column = <T>(pick: (input: EventInput) => T) => inputs.map(pick);
  const rows = await sql<{ id: string; hooks: boolean }[]>`
    insert into events (type, actor, occurred_at, subscription_id, customer_id, charge_id, data)
    select e.type, e.actor, e.occurred_at::timestamptz, e.subscription_id::uuid, e.customer_id::uuid,
           e.charge_id::uuid, e.data::jsonb
    from unnest(
      ${column((i) => i.type)}::text[], ${column((i) => i.actor)}::text[],
      ${column((i) => pgTimestamp(i.occurredAt))}::text[],
      ${column((i) => i.subscriptionId ?? null)}::text[], ${column((i) => i.customerId ?? null)}::text[],
      ${column((i) => i.chargeId ?? null)}::text[], ${column((i) => JSON.stringify(i.data ?? {}))}::text[]
    ) with ordinality as e(type, actor, occurred_at, subscription_id, customer_id, charge_id, data, ord)
    order by e.ord
    returning id, (select exists (select 1 from webhook_endpoints where enabled)) as hooks`;
  const ids = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  if (ids.length !== inputs.length) throw new Error(`${inputs.length} events sent, ${ids.length} recorded`);

  const hooks = rows[0]?.hooks === true;
  const outbox = inputs.flatMap((input, index) => {
    const { type } = input;
    if (!hooks || !isWebhookEventType(type)) return [];
    const id = ids[index] as number;
    return [{ id, type, due: pgTimestamp(input.occurredAt), body: buildWebhookBody({ ...input, id, type }) }];
  });
  if (outbox.length > 0) {
    await sql`
      insert into webhook_deliveries (endpoint_id, event_id, event_type, payload, next_attempt_at)
      select endpoint.id, d.event_id, d.event_type, d.payload::jsonb, d.due::timestamptz
      from unnest(
        ${outbox.map((o) => String(o.id))}::bigint[], ${outbox.map((o) => o.type)}::text[],
        ${outbox.map((o) => JSON.stringify(o.body))}::text[], ${outbox.map((o) => o.due)}::text[]
      ) as d(event_id, event_type, payload, due)
      cross join webhook_endpoints endpoint
      where endpoint.enabled`;
  }
  await addCustomerOutbox(
    sql,
    inputs.map((input, index) => ({ ...input, id: ids[index] as number })),
  );
  // What changes of standing or plan give their customers now (src/entitlements/changed-events.ts),
  // recorded after them; no statement unless the batch holds such a change.
  const entitlements = await entitlementChanges(sql, inputs);
  if (entitlements.length > 0) await recordEvents(sql, entitlements);
  return ids;
}
