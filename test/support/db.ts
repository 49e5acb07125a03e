import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { createDb, type Db, type Sql } from "../../src/db/client.js";
import { migrateDatabase } from "../../src/db/migrate.js";
import { withDatabase } from "../../src/db/url.js";

/**
 * A fresh, fully migrated database per test file (or per test), on the local Postgres:
 *
 *   let t: TestDatabase;
 *   beforeAll(async () => { t = await createTestDatabase(); });
 *   afterAll(() => t?.drop());
 *
 * Names are random (billing_test_<hex>), so suites of every engineer run in parallel without
 * seeing each other's rows. TEST_DATABASE_URL points at another server's maintenance database.
 */

export interface TestDatabase {
  name: string;
  url: string;
  db: Db;
  sql: Sql;
  /** Closes the client and drops the database, even with connections left open. Idempotent. */
  drop(): Promise<void>;
}

const MAINTENANCE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

async function dropDatabase(name: string): Promise<void> {
  const admin = postgres(MAINTENANCE_URL, { max: 1, onnotice: () => {} });
  try {
    await admin`drop database if exists ${admin(name)} with (force)`;
  } finally {
    await admin.end();
  }
}

export async function createTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const name = `billing_test_${randomBytes(6).toString("hex")}`;
  const url = withDatabase(MAINTENANCE_URL, name);
  const { databaseCreated } = await migrateDatabase(url).catch(async (error: unknown) => {
    await dropDatabase(name).catch(() => undefined); // keep the migration error, not the cleanup's
    throw error;
  });
  // A random name that already existed belongs to someone else: neither use it nor drop it.
  if (!databaseCreated) throw new Error(`test database ${name} already existed; refusing to use it`);
  const { db, sql, close } = createDb(url, { max: options.max ?? 4 });
  let dropped: Promise<void> | undefined;
  return {
    name,
    url,
    db,
    sql,
    drop: () => {
      dropped ??= close().then(() => dropDatabase(name));
      return dropped;
    },
  };
}
