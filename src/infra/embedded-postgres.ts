import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import type { Logger } from "../logger/index.js";
import { silentLogger } from "../logger/index.js";
import { binariesReachableBy, embeddedPostgresBinaries } from "./embedded-postgres-binaries.js";
import { findFreePort } from "./free-port.js";
import { postgresOsUser, untraversableAbove } from "./postgres-os-user.js";
import {
  type ClusterProcessOptions,
  initialiseCluster,
  startServerProcess,
  stopServerProcess,
} from "./postgres-process.js";

export interface EmbeddedPostgresOptions {
  /**
   * Holds the cluster (`<dataDir>/pgdata`) and its generated password (`<dataDir>/password`). An
   * existing cluster is reused. Defaults to `.data/postgres`.
   */
  dataDir?: string;
  /** Defaults to 54329, or to a free port when something already listens there. */
  port?: number;
  /** Created on first start. Defaults to `billing`. */
  database?: string;
  logger?: Logger;
  /** Bound on starting the server (initialising a new cluster included). Defaults to 60 s. */
  startTimeoutMs?: number;
  /** Bound on a clean stop; past it `stop()` rejects. Defaults to 15 s. */
  stopTimeoutMs?: number;
}

export interface EmbeddedPostgres {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/<database>` */
  url: string;
  port: number;
  /** Stops the server; the data stays. Safe to call more than once. */
  stop(): Promise<void>;
  /**
   * Calls `listener` once if the server exits without stop() having been called (it crashed or
   * was killed), with a sentence saying how and where its data is. Nothing that uses the database
   * can work after that.
   */
  onUnexpectedExit(listener: (how: string) => void): void;
}

const DEFAULT_PORT = 54329;
const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined)) !== undefined;
}

async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`embedded Postgres: ${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The password is made with the cluster and kept beside it, readable by the owner only. */
async function clusterPassword(passwordFile: string, clusterExists: boolean): Promise<string> {
  if (clusterExists) {
    const stored = await readFile(passwordFile, "utf8").catch(() => undefined);
    if (stored === undefined) {
      throw new Error(`embedded Postgres: a cluster exists but its password file ${passwordFile} is missing`);
    }
    return stored.trim();
  }
  const password = randomBytes(18).toString("base64url");
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  return password;
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  // Imported here: every process that may start the database loads this module, few start it.
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/** The last lines the server and initdb printed, to explain a failed start. */
function logTail(size: number) {
  const lines: string[] = [];
  return {
    add(message: string) {
      lines.push(...message.trim().split("\n"));
      lines.splice(0, Math.max(0, lines.length - size));
    },
    text: () => lines.join("\n"),
  };
}

/**
 * How the processes reach the cluster. As root they run as the postgres user; a cluster directory
 * that user cannot reach is entered through the working directory (postgres-process.ts), which
 * needs /proc, so elsewhere that case stops with one sentence saying what to do.
 */
async function clusterProcessOptions(
  clusterDir: string,
  logger: Logger,
  onLog: (message: string) => void,
): Promise<ClusterProcessOptions> {
  const binaries = await embeddedPostgresBinaries(logger);
  if (userInfo().uid !== 0) return { binaries, clusterDir, runAs: undefined, throughCwd: false, onLog };
  const runAs = await postgresOsUser();
  await chown(clusterDir, runAs.uid, runAs.gid);
  const closed = await untraversableAbove(clusterDir, runAs);
  if (closed !== undefined && process.platform !== "linux") {
    throw new Error(
      `embedded Postgres: running as root, it runs as the postgres user, which cannot reach ${clusterDir} ` +
        `(${closed} is closed to it); run as another user, set BILLING_DATA_DIR to a directory that user ` +
        "can reach, or set DATABASE_URL",
    );
  }
  if (closed !== undefined) {
    logger.debug({ clusterDir, closed }, "reaching the cluster through the working directory");
  }
  return {
    binaries: await binariesReachableBy(binaries, runAs, logger),
    clusterDir,
    runAs,
    throughCwd: closed !== undefined,
    onLog,
  };
}

/**
 * Runs a PostgreSQL 17 server from the binaries the `embedded-postgres` package installs, for local
 * development without a system PostgreSQL. The cluster is initialised on first use and reused; it
 * always lives in `<dataDir>/pgdata`.
 *
 * PostgreSQL refuses to run as root. As root, initdb and the server run as the OS user `postgres`
 * (added when missing), which owns the cluster directory. That works from any directory, root's
 * home included: binaries it cannot reach are copied once where it can (embedded-postgres-
 * binaries.ts), and a cluster it cannot reach is entered through the working directory
 * (postgres-process.ts). The password file beside the cluster stays root's, 0600.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions = {},
): Promise<EmbeddedPostgres> {
  const logger = (options.logger ?? silentLogger).child({ component: "embedded-postgres" });
  const database = options.database ?? "billing";
  if (!DATABASE_NAME.test(database)) {
    throw new Error(`database name ${JSON.stringify(database)} is not allowed`);
  }
  const dataDir = path.resolve(options.dataDir ?? ".data/postgres");
  const clusterDir = path.join(dataDir, "pgdata");
  const clusterExists = await exists(path.join(clusterDir, "PG_VERSION"));
  await mkdir(clusterDir, { recursive: true, mode: 0o700 });
  // When the directories above it let others through, the postgres user reaches the cluster by path.
  if (userInfo().uid === 0) await chmod(dataDir, 0o755);

  const tail = logTail(10);
  const processes = await clusterProcessOptions(clusterDir, logger, (message) => {
    tail.add(message);
    logger.debug({ message: message.trim() }, "postgres");
  });
  const password = await clusterPassword(path.join(dataDir, "password"), clusterExists);
  const port = options.port ?? (await findFreePort(DEFAULT_PORT));
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 15_000;

  let server: ChildProcess | undefined;
  let stopping: Promise<void> | undefined;
  // If this process exits without stop(), the server is asked to stop rather than left running.
  const stopOnExit = () => server?.kill("SIGINT");
  const stop = () => {
    process.off("exit", stopOnExit);
    stopping ??= server
      ? withDeadline(stopServerProcess(server), stopTimeoutMs, "stopping")
      : Promise.resolve();
    return stopping;
  };
  try {
    const running = await withDeadline(
      (async () => {
        if (!clusterExists) {
          logger.info({ clusterDir }, "initialising embedded Postgres cluster");
          await initialiseCluster(processes, password);
        }
        const started = startServerProcess(processes, port);
        server = started.server;
        process.on("exit", stopOnExit);
        await started.ready.catch((error: Error) => {
          const log = tail.text();
          throw new Error(log ? `${error.message}:\n${log}` : error.message, { cause: error });
        });
        return started.server;
      })(),
      startTimeoutMs,
      "starting",
    );
    const credentials = `postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    await ensureDatabase(`postgres://${credentials}/postgres`, database);
    logger.info({ port, database, clusterDir }, "embedded Postgres running");
    return {
      url: `postgres://${credentials}/${database}`,
      port,
      stop,
      onUnexpectedExit(listener) {
        const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
          if (stopping) return;
          const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
          listener(`the embedded PostgreSQL (pid ${running.pid}, data in ${clusterDir}) ${how}`);
        };
        if (running.exitCode !== null || running.signalCode !== null) {
          onExit(running.exitCode, running.signalCode);
        } else running.once("exit", onExit);
      },
    };
  } catch (err) {
    await stop().catch((stopErr: unknown) => logger.error({ err: stopErr }, "stop failed"));
    throw err;
  }
}
