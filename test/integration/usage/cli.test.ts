import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";

/** `billing meters create|list`, in-process on a fresh database. */

let database: TestDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "billing-meters-"));
  env = { NODE_ENV: "test", DATABASE_URL: database.url, BILLING_DATA_DIR: dataDir, LOG_LEVEL: "silent" };
});

afterAll(async () => {
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function billing(...args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const code = await runCli(args, { stdout, stderr, env });
  return { code, stdout: stdout.read()?.toString() ?? "", stderr: stderr.read()?.toString() ?? "" };
}

describe("billing meters", () => {
  it("creates meters and lists them", async () => {
    const created = await billing(
      "meters",
      "create",
      "--code",
      "api_calls",
      "--name",
      "API calls",
      "--aggregation",
      "sum",
      "--json",
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({
      code: "api_calls",
      name: "API calls",
      aggregation: "sum",
      archived_at: null,
    });
    await billing("meters", "create", "--code", "users", "--name", "Users", "--aggregation", "unique_count");
    const list = await billing("meters", "list", "--json");
    expect(JSON.parse(list.stdout).data.map((m: { code: string }) => m.code)).toEqual(["api_calls", "users"]);
    const text = await billing("meters", "list");
    expect(text.stdout).toMatch(/api_calls\s+API calls\s+sum/);
  });

  it("refuses a taken code, a bad code and an unknown aggregation by their options", async () => {
    const taken = await billing(
      "meters",
      "create",
      "--code",
      "api_calls",
      "--name",
      "Again",
      "--aggregation",
      "sum",
    );
    expect(taken).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("--code: a meter with code api_calls already exists"),
    });
    const bad = await billing("meters", "create", "--code", "API", "--name", "Bad", "--aggregation", "sum");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--code: must be 1-64 of a-z");
    const kind = await billing("meters", "create", "--code", "x", "--name", "X", "--aggregation", "avg");
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain("--aggregation");
  });
});
