import { sql } from "drizzle-orm";
import { bigint, check, pgEnum, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, rowId, timestamptz } from "./columns.js";

/**
 * Usage metering (src/usage, docs/usage.md): what a merchant counts per subscription, to be priced
 * per period. How a meter adds its events up over a period: `sum` of quantities, `count` of events,
 * `max` quantity, `unique_count` of distinct values, `last` quantity (latest occurred_at).
 */
export const meterAggregation = pgEnum("meter_aggregation", ["sum", "count", "max", "unique_count", "last"]);

/** Something usage is counted in (API calls, GB stored, seats seen). The code never changes. */
export const meters = pgTable(
  "meters",
  {
    id: rowId(),
    code: text("code").notNull().unique("meters_code_key"),
    name: text("name").notNull(),
    aggregation: meterAggregation("aggregation").notNull(),
    createdAt: createdAt(),
    /** Takes no new events from then; its events already recorded still count. */
    archivedAt: timestamptz("archived_at"),
  },
  (t) => [
    check("meters_code_shape", sql`${t.code} ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'`),
    check("meters_name_present", sql`btrim(${t.name}) <> ''`),
  ],
);

/**
 * One usage event. The hot table: PARTITIONED BY RANGE (occurred_at), one partition per UTC month
 * (usage_events_YYYY_MM, made by usage_ensure_partitions(), migration 0015), so an old month is
 * dropped whole instead of deleted row by row. Rules:
 * - no foreign keys: each would cost a lookup per inserted row (and the row's lock on the parent);
 *   ingestion checks meter and subscription once per request instead (src/usage);
 * - the primary key must hold the partition key, so it cannot say "one event id per
 *   subscription" across timestamps: usage_event_keys below does, in the same statement;
 * - (subscription_id, occurred_at) leads the key, which is how periods are read;
 * - quantities are whole units (the merchant sends the smallest unit), never negative.
 * Drizzle cannot say "partitioned": the migration is hand-edited (see 0015).
 */
export const usageEvents = pgTable(
  "usage_events",
  {
    subscriptionId: uuid("subscription_id").notNull(),
    meterId: uuid("meter_id").notNull(),
    /** The merchant's idempotency key of the event. */
    eventId: text("event_id").notNull(),
    quantity: bigint("quantity", { mode: "number" }).notNull(),
    /** What unique_count meters count distinct values of (a user id, a device). */
    distinctValue: text("distinct_value"),
    occurredAt: timestamptz("occurred_at").notNull(),
    /** Billing-clock time of ingestion; breaks ties of `last`. */
    receivedAt: timestamptz("received_at").notNull(),
  },
  (t) => [
    primaryKey({ name: "usage_events_pkey", columns: [t.subscriptionId, t.occurredAt, t.eventId] }),
    check("usage_events_event_id_length", sql`char_length(${t.eventId}) between 1 and 255`),
    check("usage_events_quantity_non_negative", sql`${t.quantity} >= 0`),
    check("usage_events_distinct_value_length", sql`char_length(${t.distinctValue}) <= 255`),
  ],
);

/**
 * Deduplication of usage events: one row per (subscription, event id) ever accepted, whatever its
 * timestamp, inserted with `on conflict do nothing` in the same statement as the event, so an event
 * is stored exactly when its key is new. Not partitioned: the key must be unique across months.
 * No foreign key, as on usage_events. A key may be deleted once its event's period is closed (no
 * retry with that timestamp can be accepted any more): pruneUsageKeys (src/usage/sweep.ts).
 */
export const usageEventKeys = pgTable(
  "usage_event_keys",
  {
    subscriptionId: uuid("subscription_id").notNull(),
    eventId: text("event_id").notNull(),
    /** The accepted event's timestamp, which decides when the key may go. */
    occurredAt: timestamptz("occurred_at").notNull(),
    receivedAt: timestamptz("received_at").notNull(),
  },
  (t) => [primaryKey({ name: "usage_event_keys_pkey", columns: [t.subscriptionId, t.eventId] })],
);
