import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { withDatabase } from "../../../src/db/url.js";
import { writeRuntimeRecord } from "../../../src/runtime/runtime-file.js";
import { type CliRun, jsonOf, runProcess } from "./support.js";

/**
 * `npm run migrate` is `billing migrate`: it migrates the database the engine's processes resolve
 * (DATABASE_URL, else the running engine's named in runtime.json, else the embedded one), never a
 * `billing` database on whatever answers on 127.0.0.1:5432. Each case names a database that does
 * not exist yet, so "created" shows which one the command chose.
 */

const MAINTENANCE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const created: string[] = [];
const dirs: string[] = [];

afterAll(async () => {
  const admin = postgres(MAINTENANCE_URL, { max: 1, onnotice: () => {} });
  try {
    for (const name of created) await admin`drop database if exists ${admin(name)} with (force)`;
  } finally {
    await admin.end();
  }
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A database URL whose database does not exist yet (dropped after the file). */
function freshDatabaseUrl(): string {
  const name = `billing_test_${randomBytes(6).toString("hex")}`;
  created.push(name);
  return withDatabase(MAINTENANCE_URL, name);
}

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "billing-migrate-"));
  dirs.push(dir);
  return dir;
}

/** `npm run --silent migrate -- --json` from the repository, with exactly `env`. */
function npmRunMigrate(env: NodeJS.ProcessEnv): Promise<CliRun> {
  return runProcess("npm", ["run", "--silent", "migrate", "--", "--json"], env);
}

interface Migrated {
  database: string;
  database_created: boolean;
  applied: number;
}

describe("npm run migrate", () => {
  it("migrates the running engine's database named in runtime.json", async () => {
    const dir = await dataDir();
    const url = freshDatabaseUrl();
    await writeRuntimeRecord(dir, {
      pid: process.pid,
      started_at: new Date().toISOString(),
      url: null,
      database_url: url,
      redis_url: null,
      queue_prefix: "bullmq",
      gateway: null,
      clock: "controllable",
      queue_backend: "postgres",
    });
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, BILLING_DATA_DIR: dir };
    const migrated = jsonOf<Migrated>(await npmRunMigrate(env));
    expect(migrated).toMatchObject({ database: "shared", database_created: true });
    expect(migrated.applied).toBeGreaterThan(0);
  });

  it("migrates DATABASE_URL when it is set", async () => {
    const url = freshDatabaseUrl();
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      BILLING_DATA_DIR: await dataDir(),
      DATABASE_URL: url,
    };
    const migrated = jsonOf<Migrated>(await npmRunMigrate(env));
    expect(migrated).toMatchObject({ database: "configured", database_created: true });
    const again = jsonOf<Migrated>(await npmRunMigrate(env));
    expect(again).toEqual({ database: "configured", database_created: false, applied: 0 });
  });
});
