import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import type { Logger } from "../logger/index.js";
import { pgError } from "./errors.js";
import { databaseName, describeTarget, withDatabase } from "./url.js";

/**
 * Brings a database up to the migrations in drizzle/. Safe to run on every start of every
 * process: the database is created when missing, and migrations run under a session advisory
 * lock, so processes starting together apply them once, one after the other. Drizzle records
 * applied migrations in drizzle.__drizzle_migrations and applies newer ones in one transaction.
 * It makes every process's first connection, so a failure to connect is reported here, naming the
 * variable to fix (DatabaseUnreachableError).
 */

export const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** Every migrating process takes the advisory lock keyed by this name on the target database. */
const LOCK_NAME = "billing-engine:migrate";

export interface MigrateOptions {
  logger?: Logger;
  migrationsFolder?: string;
}

/**
 * The first connection of a process failed: the message names DATABASE_URL (which every process's
 * database URL is, the zero-config ones included) and where it points, never its password.
 */
export class DatabaseUnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`DATABASE_URL: cannot connect to PostgreSQL at ${describeTarget(url)}: ${reason}`, { cause });
    this.name = "DatabaseUnreachableError";
  }
}

export interface MigrateResult {
  databaseCreated: boolean;
  /** Migrations this call applied (0 when the database was already current). */
  applied: number;
}

/** One connection, so the advisory lock and every migration statement share a session. */
function connect(url: string, logger: Logger | undefined): postgres.Sql {
  return postgres(url, {
    database: databaseName(url),
    max: 1,
    onnotice: (notice) => logger?.debug({ notice: notice.message }, "postgres notice"),
  });
}

/** Creates the database from the `postgres` maintenance database; false if another process won. */
async function createDatabase(url: string, name: string, logger: Logger | undefined): Promise<boolean> {
  const admin = connect(withDatabase(url, "postgres"), logger);
  try {
    // sql(name) quotes the identifier, so any name is safe.
    await admin`create database ${admin(name)}`;
    logger?.info({ database: name }, "database created");
    return true;
  } catch (error) {
    // 42P04 duplicate_database; 23505 when two CREATEs race on pg_database's unique index.
    const code = pgError(error)?.code;
    if (code === "42P04" || code === "23505") return false;
    throw error;
  } finally {
    await admin.end();
  }
}

async function appliedCount(sql: postgres.Sql): Promise<number> {
  const [ledger] = await sql`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`;
  if (!ledger?.exists) return 0;
  const [row] = await sql`select count(*)::int as count from drizzle.__drizzle_migrations`;
  return Number(row?.count ?? 0);
}

/**
 * Whether the database behind `sql` already has every migration of the folder, by drizzle's own
 * rule: nothing in the journal is newer than the newest migration applied. One query on a
 * connection the caller has anyway, no lock and no migration file read, for processes that would
 * otherwise migrate on every start only to find nothing to do (each CLI command). False when the
 * ledger does not exist yet; other errors are thrown.
 */
export async function isMigrated(sql: postgres.Sql, migrationsFolder = MIGRATIONS_FOLDER): Promise<boolean> {
  const journal = JSON.parse(
    await readFile(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
  ) as {
    entries: { when: number }[];
  };
  let newest: number;
  try {
    const [row] = await sql<{ newest: string | null }[]>`
      select max(created_at)::text as newest from drizzle.__drizzle_migrations`;
    newest = Number(row?.newest ?? Number.NaN);
  } catch (error) {
    // 42P01 undefined_table, 3F000 invalid_schema_name: never migrated.
    const code = pgError(error)?.code;
    if (code === "42P01" || code === "3F000") return false;
    throw error;
  }
  return journal.entries.every((entry) => entry.when <= newest);
}

export async function migrateDatabase(url: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const { logger, migrationsFolder = MIGRATIONS_FOLDER } = options;
  const name = databaseName(url);
  let databaseCreated = false;
  let sql = connect(url, logger);
  try {
    await sql`select 1`;
  } catch (error) {
    await sql.end();
    // invalid_catalog_name: no such database, so it is made; anything else means no connection.
    if (pgError(error)?.code !== "3D000") throw new DatabaseUnreachableError(url, error);
    databaseCreated = await createDatabase(url, name, logger);
    sql = connect(url, logger);
  }
  try {
    const [free] = await sql<{ locked: boolean }[]>`
      select pg_try_advisory_lock(hashtextextended(${LOCK_NAME}, 0)) as locked`;
    if (!free?.locked) {
      logger?.info({ database: name }, "waiting for another process to finish migrating");
      await sql`select pg_advisory_lock(hashtextextended(${LOCK_NAME}, 0))`;
    }
    const before = await appliedCount(sql);
    await migrate(drizzle({ client: sql }), { migrationsFolder });
    const applied = (await appliedCount(sql)) - before;
    logger?.info({ database: name, applied }, applied ? "migrations applied" : "database schema is current");
    return { databaseCreated, applied };
  } finally {
    // Ending the session releases the advisory lock.
    await sql.end();
  }
}
