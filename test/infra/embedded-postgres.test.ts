import { spawnSync } from "node:child_process";
import { chmod, cp, lstat, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { binariesReachableBy, embeddedPostgresBinaries } from "../../src/infra/embedded-postgres-binaries.js";
import { type EmbeddedPostgres, findFreePort, startEmbeddedPostgres } from "../../src/infra/index.js";
import { postgresOsUser, untraversableAbove } from "../../src/infra/postgres-os-user.js";
import { silentLogger } from "../../src/logger/index.js";

async function query(url: string, sql: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows[0];
  } finally {
    await client.end();
  }
}

const selectOne = (url: string) => query(url, "select 1 as one");
const asRoot = process.getuid?.() === 0;

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
    expect(await died).toBe(
      `the embedded PostgreSQL (pid ${pid}, data in ${path.join(dataDir, "pgdata")}) was killed by SIGKILL`,
    );
    await second.stop();
  }, 30_000);

  // PostgreSQL runs as the postgres user then, which cannot pass this directory (like root's home).
  it.runIf(asRoot)(
    "runs as root under a directory closed to others, keeping the cluster there",
    async () => {
      const closed = await mkdtemp(path.join(tmpdir(), "billing-embedded-pg-closed-"));
      dirs.push(closed);
      await chmod(closed, 0o700);
      const dataDir = path.join(closed, "checkout", ".data", "postgres");
      const user = await postgresOsUser();

      const first = await startEmbeddedPostgres({
        dataDir,
        port: await findFreePort(),
        startTimeoutMs: 20_000,
      });
      servers.push(first);
      await query(first.url, "create table kept as select 7 as id");
      await first.stop();
      const second = await startEmbeddedPostgres({ dataDir, port: first.port, startTimeoutMs: 10_000 });
      servers.push(second);
      expect(await query(second.url, "select id from kept")).toEqual({ id: 7 });
      await second.stop();

      // The cluster is a directory of the postgres user's in the data directory, and nothing was opened.
      const cluster = await lstat(path.join(dataDir, "pgdata"));
      expect(cluster.isDirectory()).toBe(true);
      expect(cluster.uid).toBe(user.uid);
      expect((await stat(closed)).mode & 0o777).toBe(0o700);
      expect(await untraversableAbove(dataDir, user)).toBe(closed);
    },
    40_000,
  );

  it.runIf(asRoot)(
    "copies binaries the postgres user cannot reach to a shared directory, once",
    async () => {
      const user = await postgresOsUser();
      const installed = await embeddedPostgresBinaries(silentLogger);
      const closed = await mkdtemp(path.join(tmpdir(), "billing-embedded-pg-bin-"));
      const shared = await mkdtemp(path.join(tmpdir(), "billing-embedded-pg-shared-"));
      dirs.push(closed, shared);
      await chmod(shared, 0o755);
      const root = path.join(closed, "native");
      await cp(installed.root, root, { recursive: true, verbatimSymlinks: true });
      const unreachable = {
        ...installed,
        root,
        initdb: path.join(root, "bin", "initdb"),
        postgres: path.join(root, "bin", "postgres"),
      };
      const sharedDir = path.join(shared, "embedded-postgres");

      const copy = await binariesReachableBy(unreachable, user, silentLogger, sharedDir);
      expect(copy.root).toBe(path.join(sharedDir, installed.release));
      const version = spawnSync(copy.postgres, ["--version"], {
        uid: user.uid,
        gid: user.gid,
        encoding: "utf8",
      });
      expect(version.stdout).toMatch(/^postgres \(PostgreSQL\) 17\./);
      const made = (await stat(copy.root)).ino;
      expect(await binariesReachableBy(unreachable, user, silentLogger, sharedDir)).toEqual(copy);
      expect((await stat(copy.root)).ino).toBe(made);
      // Binaries the user reaches are used where they are.
      expect(await binariesReachableBy(copy, user, silentLogger, sharedDir)).toBe(copy);

      // A copy others could have changed is not run.
      await chmod(copy.root, 0o777);
      await expect(binariesReachableBy(unreachable, user, silentLogger, sharedDir)).rejects.toThrow(
        /is not owned by root or is writable by others/,
      );
    },
    30_000,
  );
});
