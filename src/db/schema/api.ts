import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, isSha256Hex, rowId, timestamptz } from "./columns.js";
import { apiKeyScope } from "./enums.js";

/**
 * Keys of API clients. Only the SHA-256 of a key is stored (unique, so a presented key is found by
 * hashing it); the prefix is the first characters of the key, shown to tell keys apart.
 * A revoked key is kept so events that name it stay meaningful. A `read_only` key may only read; a
 * `restricted` one may read and do the write operations it names.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: rowId(),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull().unique("api_keys_key_hash_key"),
    prefix: text("prefix").notNull(),
    scope: apiKeyScope("scope").notNull().default("full"),
    /** A restricted key's writes, as "<METHOD> <route>" (e.g. "POST /v1/charges/:id/refund"). */
    allowedOperations: text("allowed_operations").array(),
    createdAt: createdAt(),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [
    check("api_keys_name_present", sql`btrim(${t.name}) <> ''`),
    check("api_keys_key_hash_hex", isSha256Hex(t.keyHash)),
    check("api_keys_prefix_present", sql`${t.prefix} <> ''`),
    check(
      "api_keys_operations_when_restricted",
      sql`(${t.scope} = 'restricted') = (${t.allowedOperations} is not null)`,
    ),
  ],
);

/**
 * Idempotency-Key replay store, per API key. The row is inserted before the work (the primary
 * key makes a concurrent duplicate wait or fail); response_status is null while the first request
 * is still running and set, with the body, when it finishes. A retry with the same key but a
 * different request_hash is a client error, never a replay.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    apiKeyId: uuid("api_key_id")
      .notNull()
      .references(() => apiKeys.id),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: "idempotency_keys_pkey", columns: [t.apiKeyId, t.key] }),
    check("idempotency_keys_key_length", sql`length(${t.key}) between 1 and 255`),
    check("idempotency_keys_request_hash_present", sql`${t.requestHash} <> ''`),
    check("idempotency_keys_response_status_range", sql`${t.responseStatus} between 100 and 599`),
  ],
);

/**
 * A login to the ops dashboard (ops/, http/ops-*), made by presenting an API key. The browser holds
 * the session's secret in a cookie; only its SHA-256 is stored. A session dies at expires_at, at
 * logout, or as soon as its key is revoked (the key is checked on every request). csrf_token goes
 * into every form the dashboard renders and must come back with each action.
 */
export const opsSessions = pgTable(
  "ops_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    apiKeyId: uuid("api_key_id")
      .notNull()
      .references(() => apiKeys.id),
    csrfToken: text("csrf_token").notNull(),
    createdAt: createdAt(),
    expiresAt: timestamptz("expires_at").notNull(),
  },
  (t) => [
    check("ops_sessions_token_hash_hex", isSha256Hex(t.tokenHash)),
    check("ops_sessions_csrf_present", sql`length(${t.csrfToken}) >= 32`),
    check("ops_sessions_expiry_after_creation", sql`${t.expiresAt} > ${t.createdAt}`),
  ],
);
