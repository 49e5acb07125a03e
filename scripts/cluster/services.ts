/**
 * The cluster's shared services, each started inside its host's namespace (network.ts) and
 * listening on that host's address only:
 * - PostgreSQL on the db host: a throwaway cluster (initdb into the run's temp dir as the
 *   `postgres` OS user, trust for 10.77.0.0/24, its socket directory in the temp dir so it never
 *   meets the machine's own server's), started and stopped with pg_ctl;
 * - Redis on the db host: a child process, nothing persisted;
 * - the gateway simulator on the sim host: scripts/gateway.ts, its URL and API key read from what
 *   it prints (as scripts/bench/processes.ts reads them on loopback).
 * Every process writes its log to the run's log directory.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import {
  chownSync,
  closeSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Redis } from "ioredis";
import { type Host, SUBNET, sh, spawnIn } from "./network.js";

const PG_PORT = 5432;
const REDIS_PORT = 6379;
const SIM_PORT = 4010;
const READY_MS = 60_000;

/** PostgreSQL's programs: CLUSTER_PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
export function postgresBin(fromEnv: string | undefined): string | null {
  if (fromEnv) return existsSync(join(fromEnv, "pg_ctl")) ? fromEnv : null;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v) && existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

function ownedBy(uid: number, gid: number, path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  chownSync(path, uid, gid);
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const uid = Number((await sh("id", ["-u", "postgres"])).stdout.trim());
  const gid = Number((await sh("id", ["-g", "postgres"])).stdout.trim());
  return { uid, gid };
}

export interface Postgres {
  /** The maintenance database, reachable from every host and from this process. */
  readonly url: string;
  stop(): Promise<void>;
}

export async function startPostgres(
  h: Host,
  bin: string,
  runDir: string,
  logDir: string,
  extraSettings: readonly string[] = [],
): Promise<Postgres> {
  const { uid, gid } = await postgresIds();
  const data = join(runDir, "pgdata");
  const socketDir = join(runDir, "pgsocket");
  ownedBy(uid, gid, data);
  ownedBy(uid, gid, socketDir);
  const log = join(logDir, "postgres.log");
  writeFileSync(log, "");
  chownSync(log, uid, gid);
  const asPostgres = (args: readonly string[]) =>
    sh("ip", ["netns", "exec", h.ns, "runuser", "-u", "postgres", "--", ...args], { cwd: runDir });
  await asPostgres([
    join(bin, "initdb"),
    "-D",
    data,
    "-U",
    "postgres",
    "--auth=trust",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  await sh("sh", ["-c", `echo 'host all all ${SUBNET}.0/24 trust' >> '${join(data, "pg_hba.conf")}'`]);
  // A throwaway cluster on a shared machine: no crash of the db host is simulated, so durability
  // is traded for time (fsync off); every commit is still a commit for the engine.
  const settings = [
    `listen_addresses='${h.address}'`,
    `port=${PG_PORT}`,
    `unix_socket_directories='${socketDir}'`,
    "max_connections=200",
    "fsync=off",
    "synchronous_commit=off",
    "full_page_writes=off",
    ...extraSettings,
  ];
  await asPostgres([
    join(bin, "pg_ctl"),
    "-D",
    data,
    "-l",
    log,
    "-w",
    "-t",
    String(READY_MS / 1000),
    "-o",
    settings.map((s) => `-c ${s}`).join(" "),
    "start",
  ]);
  let stopped = false;
  return {
    url: `postgres://postgres@${h.address}:${PG_PORT}/postgres`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await sh(
        "runuser",
        ["-u", "postgres", "--", join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop"],
        {
          allowFail: true,
          cwd: runDir,
        },
      );
    },
  };
}

/** SIGTERM, then SIGKILL past `killAfterMs`; resolves once the child has exited. */
export async function stopChild(child: ChildProcess, killAfterMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  await exited;
  clearTimeout(timer);
}

function logTo(logDir: string, name: string): number {
  return openSync(join(logDir, `${name}.log`), "a");
}

export interface RedisServer {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export async function startRedis(h: Host, logDir: string, runDir: string): Promise<RedisServer> {
  const log = logTo(logDir, "redis");
  const child = spawnIn(
    h,
    "redis-server",
    [
      "--bind",
      h.address,
      "--port",
      String(REDIS_PORT),
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "no",
      "--protected-mode",
      "no",
      "--dir",
      runDir,
    ],
    { stdio: ["ignore", log, log] },
  );
  closeSync(log);
  const url = `redis://${h.address}:${REDIS_PORT}`;
  const start = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}; see redis.log`);
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on("error", () => undefined);
    const ok = await probe
      .connect()
      .then(() => probe.ping())
      .then(
        () => true,
        () => false,
      );
    probe.disconnect();
    if (ok) break;
    if (performance.now() - start > READY_MS) throw new Error(`Redis did not answer at ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, child, stop: () => stopChild(child, 5_000) };
}

export interface Simulator {
  readonly url: string;
  readonly apiKey: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** scripts/gateway.ts on the sim host, every merchant limited to `rate` calls in any one second. */
export async function startSimulator(h: Host, logDir: string, rate: number): Promise<Simulator> {
  const log = logTo(logDir, "simulator");
  const child = spawnIn(h, process.execPath, ["--import", "tsx", "scripts/gateway.ts"], {
    env: {
      ...process.env,
      GATEWAY_SIM_HOST: h.address,
      GATEWAY_SIM_PORT: String(SIM_PORT),
      GATEWAY_SIM_RATE_LIMIT_PER_SECOND: String(rate),
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", log],
  });
  closeSync(log);
  const lines = createInterface({ input: child.stdout! });
  let url = "";
  let apiKey = "";
  const timer = setTimeout(() => child.kill("SIGKILL"), READY_MS);
  for await (const line of lines) {
    url ||= /listening on (\S+)/.exec(line)?.[1] ?? "";
    apiKey ||= /api key: (\S+)/.exec(line)?.[1] ?? "";
    if (url && apiKey) break;
  }
  clearTimeout(timer);
  // The rest of its output (its log lines) goes to its log, so a full pipe never blocks it.
  child.stdout!.pipe(createWriteStream(join(logDir, "simulator.log"), { flags: "a" }));
  if (!url || !apiKey) throw new Error("the simulator did not print its URL and API key; see simulator.log");
  return { url, apiKey, child, stop: () => stopChild(child, 10_000) };
}
