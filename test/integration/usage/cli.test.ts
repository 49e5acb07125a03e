import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { type InProcessCli, inProcessCli } from "../../support/in-process-cli.js";

/** `billing meters create|list`, in-process on a fresh database. */

let database: TestDatabase;
let cli: InProcessCli;

beforeAll(async () => {
  database = await createTestDatabase();
  cli = await inProcessCli({ DATABASE_URL: database.url }, "meters");
});

afterAll(async () => {
  await database?.drop();
  await cli?.close();
});

describe("billing meters", () => {
  it("creates meters and lists them", async () => {
    const created = await cli.billing(
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
    await cli.billing(
      "meters",
      "create",
      "--code",
      "users",
      "--name",
      "Users",
      "--aggregation",
      "unique_count",
    );
    const list = await cli.billing("meters", "list", "--json");
    expect(JSON.parse(list.stdout).data.map((m: { code: string }) => m.code)).toEqual(["api_calls", "users"]);
    const text = await cli.billing("meters", "list");
    expect(text.stdout).toMatch(/api_calls\s+API calls\s+sum/);
  });

  it("refuses a taken code, a bad code and an unknown aggregation by their options", async () => {
    const taken = await cli.billing(
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
    const bad = await cli.billing(
      "meters",
      "create",
      "--code",
      "API",
      "--name",
      "Bad",
      "--aggregation",
      "sum",
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--code: must be 1-64 of a-z");
    const kind = await cli.billing("meters", "create", "--code", "x", "--name", "X", "--aggregation", "avg");
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain("--aggregation");
  });
});
