import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Logger } from "../logger/index.js";
import * as schema from "./schema/index.js";
import { databaseName } from "./url.js";

export type Schema = typeof schema;
/** Drizzle over postgres.js; `$client` is the pool, for the hot path's prepared tagged queries. */
export type Db = PostgresJsDatabase<Schema> & { $client: Sql };
/** A transaction handle as passed to `db.transaction(async (tx) => …)`. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Sql = postgres.Sql;
/** A postgres.js transaction, as passed to `sql.begin(async (tx) => …)`. */
export type SqlTx = postgres.TransactionSql;
/** Where a tagged query may run: the pool, or inside a transaction. */
export type SqlRunner = Sql | SqlTx;

/**
 * The postgres.js transaction under a drizzle one, so a step written as tagged queries can join a
 * transaction a drizzle service opened. Drizzle's postgres-js session keeps it as `client`.
 */
export function sqlOf(tx: Tx): SqlTx {
  const client = (tx as unknown as { session?: { client?: SqlTx } }).session?.client;
  if (!client) throw new Error("not a drizzle postgres.js transaction");
  return client;
}

export interface DbClient {
  /** Typed queries, including relational ones (`db.query.subscriptions.findMany`). */
  db: Db;
  /**
   * The postgres.js pool under `db`, for SQL drizzle cannot express (advisory locks,
   * `for update skip locked`, LISTEN). drizzle makes it return timestamps as strings.
   */
  sql: Sql;
  /** Waits up to five seconds for running queries, then closes every connection. */
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** Pool size; default 10. */
  max?: number;
  logger?: Logger;
  /** application_name of every connection, so pg_stat_activity tells the processes apart. */
  applicationName?: string;
}

/** Opens a pool to Postgres; nothing connects until the first query. */
export function createDb(url: string, { max = 10, logger, applicationName }: CreateDbOptions = {}): DbClient {
  const sql = postgres(url, {
    database: databaseName(url),
    max,
    ...(applicationName === undefined ? {} : { connection: { application_name: applicationName } }),
    onnotice: (notice) => logger?.debug({ notice: notice.message }, "postgres notice"),
  });
  const db = drizzle({ client: sql, schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}
