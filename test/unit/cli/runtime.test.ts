import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  claimRuntimeRecord,
  type RuntimeRecord,
  readLiveRuntime,
  removeRuntimeRecord,
  runtimeFileOf,
  writeRuntimeRecord,
} from "../../../src/runtime/runtime-file.js";
import { joinSetup, NoRunningEngineError } from "../../../src/runtime/setup.js";
import { withZeroConfigDefaults } from "../../../src/runtime/zero-config.js";

describe("withZeroConfigDefaults", () => {
  it("puts everything under .data and makes the clock controllable when the simulator is in-process", () => {
    const env = withZeroConfigDefaults({});
    expect(env.EMBEDDED_POSTGRES_DIR).toBe(path.resolve(".data/postgres"));
    expect(env.TOKEN_DEV_KEY_FILE).toBe(path.resolve(".data/token-key"));
    expect(env.BILLING_CLOCK).toBe("controllable");
  });

  it("follows BILLING_DATA_DIR, keeps what is set, and treats empty as unset", () => {
    const env = withZeroConfigDefaults({
      BILLING_DATA_DIR: "/srv/x",
      BILLING_CLOCK: "",
      TOKEN_DEV_KEY_FILE: "/k",
    });
    expect(env).toMatchObject({
      EMBEDDED_POSTGRES_DIR: "/srv/x/postgres",
      TOKEN_DEV_KEY_FILE: "/k",
      BILLING_CLOCK: "controllable",
    });
  });

  it("leaves the clock to its default when a gateway is configured", () => {
    expect(withZeroConfigDefaults({ GATEWAY_BASE_URL: "https://gw.example" }).BILLING_CLOCK).toBeUndefined();
  });
});

describe("runtime.json", () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  const record = (pid: number): RuntimeRecord => ({
    pid,
    started_at: "2026-01-01T00:00:00.000Z",
    url: "http://localhost:3000",
    database_url: "postgres://postgres:pw@127.0.0.1:54329/billing",
    redis_url: null,
    queue_prefix: "bullmq",
    gateway: { url: "http://127.0.0.1:4010", api_key: "8be30477-fab9-4059-9504-fe7c7ced2bc0" },
    clock: "controllable",
    queue_backend: "postgres",
  });

  it("is found while its process lives, and not once it is gone or unreadable", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "billing-runtime-"));
    dirs.push(dir);
    expect(await readLiveRuntime(dir)).toBeUndefined();
    await writeRuntimeRecord(dir, record(process.pid));
    expect(await readLiveRuntime(dir)).toEqual(record(process.pid));

    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeRuntimeRecord(dir, record(gone));
    expect(await readLiveRuntime(dir)).toBeUndefined();

    await writeFile(runtimeFileOf(dir), "{ not json");
    expect(await readLiveRuntime(dir)).toBeUndefined();
  });

  it("is removed only by the process that wrote it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "billing-runtime-"));
    dirs.push(dir);
    await writeRuntimeRecord(dir, record(process.pid + 1));
    await removeRuntimeRecord(dir);
    expect(JSON.parse(await readFile(runtimeFileOf(dir), "utf8"))).toMatchObject({ pid: process.pid + 1 });
    await writeRuntimeRecord(dir, record(process.pid));
    await removeRuntimeRecord(dir);
    await expect(readFile(runtimeFileOf(dir), "utf8")).rejects.toThrow();
  });

  it("is claimed only when no other live process holds it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "billing-runtime-"));
    dirs.push(dir);
    expect(await claimRuntimeRecord(dir, record(process.pid))).toBe(true);
    // Another live process (this test's parent) holds it: a second engine does not take it over.
    expect(await claimRuntimeRecord(dir, record(process.ppid))).toBe(false);
    expect(await readLiveRuntime(dir)).toMatchObject({ pid: process.pid });
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    await writeRuntimeRecord(dir, record(gone));
    expect(await claimRuntimeRecord(dir, record(process.ppid))).toBe(true);
  });

  it("is joined by a process on the same database, with the engine's queues and simulator", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "billing-runtime-"));
    dirs.push(dir);
    await expect(joinSetup({ BILLING_DATA_DIR: dir })).rejects.toThrow(NoRunningEngineError);
    const running = { ...record(process.pid), redis_url: "redis://127.0.0.1:6379", queue_prefix: "q1" };
    await writeRuntimeRecord(dir, running);

    for (const env of [{}, { DATABASE_URL: running.database_url }]) {
      const joined = await joinSetup({ BILLING_DATA_DIR: dir, ...env });
      expect(joined).toMatchObject({ databaseSource: "shared", databaseUrl: running.database_url });
      expect(joined.config).toMatchObject({
        REDIS_URL: running.redis_url,
        QUEUE_PREFIX: "q1",
        GATEWAY_BASE_URL: running.gateway!.url,
        GATEWAY_API_KEY: running.gateway!.api_key,
        BILLING_CLOCK: "controllable",
      });
    }
    // Another database is another engine's business.
    const other = await joinSetup({
      BILLING_DATA_DIR: dir,
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/x",
    });
    expect(other).toMatchObject({ databaseSource: "configured", runtime: undefined });
    expect(other.config.GATEWAY_BASE_URL).toBeUndefined();
  });
});
