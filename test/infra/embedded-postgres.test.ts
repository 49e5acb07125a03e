import { mkdtemp, rm } from "node:fs/promises";
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
    expect(first.url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/billing$/);
    expect(await selectOne(first.url)).toEqual({ one: 1 });
    // Its exit hooks would stop the server before our own shutdown has drained the workers.
    expect(process.listenerCount("SIGTERM")).toBe(signalHandlers);
    await first.stop();
    await expect(selectOne(first.url)).rejects.toThrow();

    const second = await startEmbeddedPostgres({ dataDir, port: first.port, startTimeoutMs: 10_000 });
    servers.push(second);
    expect(second.url).toBe(first.url);
    expect(await selectOne(second.url)).toEqual({ one: 1 });
    await second.stop();
  }, 30_000);
});
