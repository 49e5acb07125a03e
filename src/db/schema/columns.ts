import { type SQL, sql } from "drizzle-orm";
import { bigint, char, customType, type PgColumn, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Column shapes shared by every table. Times are `timestamp with time zone` read as JS Dates;
 * amounts are whole minor units (fils for QAR) beside an ISO 4217 currency code.
 */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * A row's id: a time-ordered UUID (version 7, `uuid_v7()` in migration 0024), so the rows written
 * together sit together in every index keyed by them. A random UUID sends each new entry to a
 * random leaf of an index that grows with the table, and after each checkpoint PostgreSQL logs
 * that leaf whole (8 kB) the first time it changes. Ids are not secrets: links are signed.
 */
export const rowId = () => uuid("id").primaryKey().default(sql`uuid_v7()`);

/** Bookkeeping time of the row (wall clock); billing times live in their own columns. */
export const createdAt = () => timestamptz("created_at").notNull().defaultNow();

/** Kept current by the `touch_updated_at` trigger on every UPDATE, whoever issues it. */
export const updatedAt = () => timestamptz("updated_at").notNull().defaultNow();

export const amountMinor = (name = "amount_minor") => bigint(name, { mode: "number" });

export const currency = (name = "currency") => char(name, { length: 3 });

/** Raw bytes; postgres.js reads and writes bytea as a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => "bytea",
});

/** An upper-case three-letter code such as QAR; the money module knows the exponents. */
export const isCurrencyCode = (column: PgColumn): SQL => sql`${column} ~ '^[A-Z]{3}$'`;

/** Lower-case hex of a SHA-256 digest or HMAC. */
export const isSha256Hex = (column: PgColumn): SQL => sql`${column} ~ '^[0-9a-f]{64}$'`;

/** Both columns are set together or both are null. */
export const setTogether = (a: PgColumn, b: PgColumn): SQL => sql`(${a} is null) = (${b} is null)`;
