import { type SQL, sql } from "drizzle-orm";
import { bigint, char, customType, type PgColumn, timestamp } from "drizzle-orm/pg-core";

/**
 * Column shapes shared by every table. Times are `timestamp with time zone` read as JS Dates;
 * amounts are whole minor units (fils for QAR) beside an ISO 4217 currency code.
 */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

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
