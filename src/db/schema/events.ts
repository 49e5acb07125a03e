import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, rowId, timestamptz } from "./columns.js";
import { webhookDeliveryStatus } from "./enums.js";

/**
 * The audit log: what happened, to what, by whom, at what billing-clock time. APPEND-ONLY: the
 * `events_append_only` trigger (custom migration) raises on UPDATE, DELETE and TRUNCATE, so
 * history cannot be rewritten, not even by hand. Write an event in the same transaction as the
 * change it records. The id orders events and is the cursor for webhook delivery.
 */
export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    // No foreign keys (migration 0020): every writer records an event about rows its own
    // transaction just wrote or holds locked, and nothing deletes those rows. The three checks per
    // event row were most of the event log's cost on the charge path.
    subscriptionId: uuid("subscription_id"),
    customerId: uuid("customer_id"),
    chargeId: uuid("charge_id"),
    /** Dotted name such as "charge.paid". */
    type: text("type").notNull(),
    /** "system", "scheduler", "gateway", "api:<key id>", "cli", … */
    actor: text("actor").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    /** The billing clock's time of the fact, which under a controllable clock is not now(). */
    occurredAt: timestamptz("occurred_at").notNull(),
    recordedAt: timestamptz("recorded_at").notNull().defaultNow(),
  },
  (t) => [
    index("events_subscription_idx").on(t.subscriptionId, t.id),
    check("events_type_present", sql`${t.type} <> ''`),
    check("events_actor_present", sql`${t.actor} <> ''`),
    check("events_data_object", sql`jsonb_typeof(${t.data}) = 'object'`),
  ],
);

/** A merchant URL that receives events, signed with its secret. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: rowId(),
    url: text("url").notNull(),
    /**
     * HMAC signing secret; it must be readable to sign, so it is sealed rather than hashed:
     * `v1:<key id>:<nonce>:<tag>:<ciphertext>` (src/webhooks/secrets.ts). Rows from before
     * sealing hold it in clear until an engine process boots and reseals them.
     */
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    check("webhook_endpoints_url_http", sql`${t.url} ~ '^https?://'`),
    check("webhook_endpoints_secret_present", sql`${t.secret} <> ''`),
  ],
);

/**
 * One event sent to one endpoint: created once (unique endpoint and event), retried until
 * delivered or failed. Only a pending delivery has a next_attempt_at (the dispatcher's index).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: rowId(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id),
    // No foreign key to events (migration 0025): the log refuses deletes, and a delivery is written
    // by the transaction that has just recorded its event.
    eventId: bigint("event_id", { mode: "number" }).notNull(),
    eventType: text("event_type").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: webhookDeliveryStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: timestamptz("next_attempt_at"),
    deliveredAt: timestamptz("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    unique("webhook_deliveries_endpoint_event_key").on(t.endpointId, t.eventId),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending' and ${t.nextAttemptAt} is not null`),
    // Endpoints that are failing, on the ops dashboard: given up on, or still retrying after an error.
    index("webhook_deliveries_failing_idx")
      .on(t.endpointId, t.createdAt)
      .where(sql`${t.status} = 'failed' or (${t.status} = 'pending' and ${t.attempts} > 0)`),
    check("webhook_deliveries_attempts_non_negative", sql`${t.attempts} >= 0`),
    check("webhook_deliveries_status_code_range", sql`${t.lastStatusCode} between 100 and 599`),
    check(
      "webhook_deliveries_due_only_when_pending",
      sql`${t.nextAttemptAt} is null or ${t.status} = 'pending'`,
    ),
    check(
      "webhook_deliveries_delivered_has_time",
      sql`(${t.status} = 'delivered') = (${t.deliveredAt} is not null)`,
    ),
  ],
);
