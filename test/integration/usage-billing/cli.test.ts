import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";

/**
 * `billing plans usage-prices set|unset|list`, run in-process on a fresh database (no gateway):
 * prices set and replaced, a bad field named by its option, a recurring plan refused.
 */

let database: TestDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), "billing-usage-prices-"));
  env = {
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    BILLING_DATA_DIR: dataDir,
    BILLING_CLOCK: "controllable",
    BILLING_CLOCK_START: "2026-01-15T09:00:00.000Z",
    LOG_LEVEL: "silent",
  };
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

async function json<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  const run = await billing(...args, "--json");
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

const plan = (...args: string[]) =>
  json<{ id: string }>(
    "plans",
    "create",
    "--currency",
    "QAR",
    "--interval",
    "month",
    "--amount",
    "100",
    ...args,
  );

describe("billing plans usage-prices", () => {
  it("sets, replaces, lists and unsets a plan's usage prices", async () => {
    const metered = await plan("--name", "Metered", "--billing-mode", "autosave");
    await json("meters", "create", "--code", "api_calls", "--name", "API calls", "--aggregation", "sum");
    await json(
      "meters",
      "create",
      "--code",
      "seats_seen",
      "--name",
      "Seats",
      "--aggregation",
      "unique_count",
    );

    const set = await json("plans", "usage-prices", "set", metered.id, "api_calls", "--amount", "0.05");
    expect(set).toMatchObject({
      meter: "api_calls",
      price_model: "per_unit",
      amount: "0.05",
      amount_minor: 5,
    });
    const tiered = await json(
      ...["plans", "usage-prices", "set", metered.id, "seats_seen", "--price-model", "tiered"],
      ...["--tier", "5:0", "--tier", "inf:2.00"],
    );
    expect(tiered).toMatchObject({
      price_model: "tiered",
      tiers: [
        { up_to: 5, unit_amount: "0.00", flat_amount: "0.00" },
        { up_to: null, unit_amount: "2.00", flat_amount: "0.00" },
      ],
    });
    await json("plans", "usage-prices", "set", metered.id, "api_calls", "--amount", "0.04");

    const listed = await json<{ data: { meter: string; amount_minor: number }[] }>(
      "plans",
      "usage-prices",
      "list",
      metered.id,
    );
    expect(listed.data.map((price) => [price.meter, price.amount_minor])).toEqual([
      ["api_calls", 4],
      ["seats_seen", 0],
    ]);
    const table = await billing("plans", "usage-prices", "list", metered.id);
    expect(table.stdout).toMatch(/api_calls\s+API calls\s+per_unit\s+0\.04\s+QAR/);

    expect(await json("plans", "usage-prices", "unset", metered.id, "seats_seen")).toMatchObject({
      meter: "seats_seen",
    });
    const again = await billing("plans", "usage-prices", "unset", metered.id, "seats_seen");
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`plan ${metered.id} does not price meter seats_seen`);
  });

  it("names a bad field by its option, and refuses a recurring plan", async () => {
    const metered = await plan("--name", "Metered 2", "--billing-mode", "autosave");
    const decimals = await billing(
      "plans",
      "usage-prices",
      "set",
      metered.id,
      "api_calls",
      "--amount",
      "0.055",
    );
    expect(decimals.code).toBe(2);
    expect(decimals.stderr).toContain('--amount: "0.055" has more than 2 decimal place(s) allowed for QAR');
    const missing = await billing(
      "plans",
      "usage-prices",
      "set",
      metered.id,
      "api_calls",
      "--price-model",
      "package",
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--amount");
    expect(missing.stderr).toContain("--package-size");

    const fixed = await plan("--name", "Fixed");
    const refused = await billing("plans", "usage-prices", "set", fixed.id, "api_calls", "--amount", "0.05");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      "usage varies the amount; a recurring card token is charged the fixed amount it was enrolled for; use billing_mode autosave or payment links",
    );
  });
});
