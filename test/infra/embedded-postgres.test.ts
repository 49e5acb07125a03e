import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, findFreePort, startEmbeddedPostgres } from "../../src/infra/index.js";

async function selectOne(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query("select 1 as one")).rows[0];
  } finally {
    await client.end();
  }
}

describe("startEmbeddedPostgres", () => {
  const dirs: string[] = [];
  const servers: EmbeddedPostgres[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("initialises, serves, stops, and reuses the cluster on the next start", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "billing-embedded-pg-"));
    dirs.push(dataDir);
    const signalHandlers = process.listenerCount("SIGTERM");

    const first = await startEmbeddedPostgres({
      dataDir,
      port: await findFreePort(),
      startTimeoutMs: 20_000,
    });
    servers.push(first);
    const exits: string[] = [];
    first.onUnexpectedExit((how) => exits.push(how));
    expect(first.url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/billing$/);
    expect(await selectOne(first.url)).toEqual({ one: 1 });
    // Its exit hooks would stop the server before our own shutdown has drained the workers.
    expect(process.listenerCount("SIGTERM")).toBe(signalHandlers);
    await first.stop();
    await expect(selectOne(first.url)).rejects.toThrow();
    // Stopped, not died.
    expect(exits).toEqual([]);

    const second = await startEmbeddedPostgres({ dataDir, port: first.port, startTimeoutMs: 10_000 });
    servers.push(second);
    expect(second.url).toBe(first.url);
    expect(await selectOne(second.url)).toEqual({ one: 1 });

    // Killed from outside: reported once, saying how; stop() then returns at once.
    const died = new Promise<string>((resolve) => second.onUnexpectedExit(resolve));
    const postmaster = await readFile(path.join(dataDir, "pgdata", "postmaster.pid"), "utf8");
    const pid = Number(postmaster.split("\n")[0]);
    process.kill(pid, "SIGKILL");
    expect(await died).toBe(`the embedded PostgreSQL (pid ${pid}) was killed by SIGKILL`);
    await second.stop();
  }, 30_000);
});
