import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../../src/infra/index.js";
import { createTestDatabase, type TestDatabase } from "../../support/db.js";
import { type CliRun, runBilling, runNode, scriptArgs } from "../cli/support.js";

/**
 * `npm start` and the CLI refuse a bad configuration the way the README promises: one message naming
 * every offending variable (LOG_LEVEL included, which must not crash the logger), before anything is
 * created; and a busy PORT is named as the setting to change.
 */

let workDir: string;
let database: TestDatabase;
const servers: Server[] = [];

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), "billing-config-errors-"));
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const server of servers) server.close();
  await database?.drop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** `npm start` with exactly `env` (plus PATH and HOME), in the test's working directory, to its exit. */
function start(env: NodeJS.ProcessEnv): Promise<CliRun> {
  return runNode(
    scriptArgs("start"),
    { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    { cwd: workDir },
  );
}

const BEYOND_VISA = Array.from({ length: 30 }, (_, i) => i + 1).join(",");

describe("a bad configuration", () => {
  it("stops npm start with every offending variable in one message, before a database is made", async () => {
    const run = await start({ LOG_LEVEL: "loud", PORT: "seventy", DUNNING_RETRY_DAYS: BEYOND_VISA });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines[0]).toBe("error: invalid configuration:");
    expect(lines.slice(1, -1).map((line) => line.trim().split(":")[0])).toEqual([
      "PORT",
      "LOG_LEVEL",
      "DUNNING_RETRY_DAYS",
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(await readdir(workDir)).toEqual([]);
  }, 60_000);

  it("stops a CLI command the same way, with the configuration's exit code", async () => {
    const run = await runBilling(
      ["plans", "list"],
      { PATH: process.env.PATH, LOG_LEVEL: "loud" },
      { cwd: workDir },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: invalid configuration:\n {2}LOG_LEVEL: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await readdir(workDir)).toEqual([]);
  }, 60_000);
});

describe("a busy PORT", () => {
  it("is named as the setting to change", async () => {
    const port = await findFreePort();
    const taken = createServer();
    servers.push(taken);
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve));
    const run = await start({
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: database.url,
      BILLING_DATA_DIR: path.join(workDir, "data"),
      // Any free port for the in-process simulator: 4010 may be taken between its check and its
      // listen by whatever else runs on the machine, which is not what this test is about.
      GATEWAY_SIM_PORT: "0",
      LOG_LEVEL: "silent",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: PORT ${port} is in use (listen EADDRINUSE: address already in use 127.0.0.1:${port}); ` +
        "set PORT to a free port\n",
    );
  }, 60_000);
});
