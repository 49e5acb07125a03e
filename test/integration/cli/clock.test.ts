import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { jsonOf, runBilling } from "./support.js";

/**
 * `billing clock` as a child process against a fresh database: the shared billing clock only moves
 * backwards when the operator says --force, since a running engine has already billed up to now;
 * `clock advance` never moves it backwards, whatever the duration says.
 */

const START = "2026-02-01T00:00:00.000Z";

let database: TestDatabase;
let dataDir: string;
let env: NodeJS.ProcessEnv;

const billing = (...args: string[]) => runBilling([...args, "--json"], env);
const now = async () => jsonOf<{ now: string }>(await billing("clock", "show")).now;

beforeAll(async () => {
  database = await createTestDatabase();
  // A data directory of its own, so no engine running from the repository is joined.
  dataDir = await mkdtemp(path.join(tmpdir(), "billing-cli-clock-"));
  env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    BILLING_CLOCK: "controllable",
    BILLING_CLOCK_START: START,
    BILLING_DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
  };
}, 60_000);

afterAll(async () => {
  await database?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("billing clock", () => {
  it("refuses to set the clock backwards without --force, naming both times", async () => {
    const moved = jsonOf<{ now: string }>(await billing("clock", "set", "2027-03-01T00:00:00Z"));
    expect(moved.now).toBe("2027-03-01T00:00:00.000Z");

    const refused = await billing("clock", "set", "2026-01-01T00:00:00Z");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("2027-03-01T00:00:00.000Z");
    expect(refused.stderr).toContain("2026-01-01T00:00:00.000Z");
    expect(refused.stderr).toContain("--force");
    expect(await now()).toBe("2027-03-01T00:00:00.000Z");
  }, 60_000);

  it("moves it backwards with --force, and warns", async () => {
    const forced = await billing("clock", "set", "2026-01-01T00:00:00Z", "--force");
    const moved = jsonOf<{ now: string; previous: string }>(forced);
    expect(moved.now).toBe("2026-01-01T00:00:00.000Z");
    expect(forced.stderr).toMatch(/warning: .*moved the billing clock back/);
    expect(forced.stderr).toContain(moved.previous);
    expect(await now()).toBe("2026-01-01T00:00:00.000Z");

    // Forwards needs no --force and warns of nothing.
    const forwards = await billing("clock", "set", "2026-01-02T00:00:00Z");
    expect(jsonOf<{ now: string }>(forwards).now).toBe("2026-01-02T00:00:00.000Z");
    expect(forwards.stderr).not.toContain("warning");
  }, 60_000);

  it("refuses an advance that would move it backwards", async () => {
    await billing("clock", "set", START, "--force");
    // A month less 29 days is one casual day, but from 1 February it lands on 31 January.
    for (const duration of ["-P1D", "PT-1H", "P1M-29D"]) {
      // After "--", so a leading "-" is the argument's and not an option.
      const run = await runBilling(["clock", "advance", "--json", "--", duration], env);
      expect(run.code, `${duration}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain("not a forward duration");
    }
    const dashed = await billing("clock", "advance", "-1d");
    expect(dashed.code).toBe(2);
    expect(await now()).toBe(START);
  }, 60_000);
});
