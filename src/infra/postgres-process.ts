import { type ChildProcess, spawn } from "node:child_process";
import { chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PostgresBinaries } from "./embedded-postgres-binaries.js";
import type { OsUser } from "./postgres-os-user.js";

/**
 * Runs initdb and the PostgreSQL server as child processes. Rules:
 * - as root they run as `runAs` (the postgres user), which must reach the binaries;
 * - a cluster directory that user cannot reach (a directory above it is closed to others, such as
 *   root's home) is reached through the process's working directory instead: the child enters it
 *   while still root, before it takes the postgres user's ids, and is told its data directory is
 *   /proc/self/cwd, a link into it that needs no path from `/`. Every server process inherits that
 *   working directory, and the data stays where it belongs, under the engine's data directory;
 * - messages are in English (LC_MESSAGES=C), since readiness is read from the server's log.
 */

export interface ClusterProcessOptions {
  binaries: PostgresBinaries;
  clusterDir: string;
  /** Set when running as root. */
  runAs: OsUser | undefined;
  /** The cluster directory is reached through the working directory (see above). */
  throughCwd: boolean;
  /** Each chunk the process writes on stderr. */
  onLog: (message: string) => void;
}

const READY = "database system is ready to accept connections";

function spawnIn(options: ClusterProcessOptions, file: string, args: string[]): ChildProcess {
  return spawn(file, args, {
    ...(options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {}),
    ...(options.throughCwd ? { cwd: options.clusterDir } : {}),
    env: { ...process.env, LC_MESSAGES: "C" },
    stdio: ["ignore", "ignore", "pipe"],
  });
}

function dataDirArgument(options: ClusterProcessOptions): string {
  return options.throughCwd ? "/proc/self/cwd" : options.clusterDir;
}

/** A one-line reason for a child that could not be run at all (EACCES, ENOENT). */
function spawnFailure(file: string, error: Error): Error {
  return new Error(`embedded Postgres: could not run ${file}: ${error.message}`, { cause: error });
}

/** Creates the cluster with `password` for the superuser `postgres`; rejects with initdb's output. */
export async function initialiseCluster(options: ClusterProcessOptions, password: string): Promise<void> {
  // initdb reads the password from a file, which the user it runs as must be able to read.
  const dir = await mkdtemp(path.join(tmpdir(), "billing-pg-init-"));
  const passwordFile = path.join(dir, "password");
  try {
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (options.runAs) {
      await chown(dir, options.runAs.uid, options.runAs.gid);
      await chown(passwordFile, options.runAs.uid, options.runAs.gid);
    }
    const initdb = spawnIn(options, options.binaries.initdb, [
      `--pgdata=${dataDirArgument(options)}`,
      "--auth=scram-sha-256",
      "--username=postgres",
      `--pwfile=${passwordFile}`,
      "--encoding=UTF8",
      "--locale=C",
    ]);
    let output = "";
    initdb.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      options.onLog(chunk.toString());
    });
    await new Promise<void>((resolve, reject) => {
      initdb.once("error", (error) => reject(spawnFailure(options.binaries.initdb, error)));
      initdb.once("close", (code, signal) => {
        if (code === 0) resolve();
        else
          reject(
            new Error(`embedded Postgres: initdb failed (${signal ?? `code ${code}`}):\n${output.trim()}`),
          );
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the server on 127.0.0.1:`port` only (no Unix socket, so clusters never collide on a socket
 * file). `ready` settles once it accepts connections, or rejects if it exits or cannot run first.
 */
export function startServerProcess(
  options: ClusterProcessOptions,
  port: number,
): { server: ChildProcess; ready: Promise<void> } {
  const server = spawnIn(options, options.binaries.postgres, [
    "-D",
    dataDirArgument(options),
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "unix_socket_directories=",
  ]);
  const ready = new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(spawnFailure(options.binaries.postgres, error)));
    server.once("exit", () => reject(new Error("embedded Postgres exited while starting")));
    server.stderr?.on("data", (chunk: Buffer) => {
      const message = chunk.toString();
      options.onLog(message);
      if (message.includes(READY)) resolve();
    });
  });
  return { server, ready };
}

/** Asks the server for a fast shutdown and waits for it to exit; at once if it has exited already. */
export function stopServerProcess(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    server.once("exit", () => resolve());
    server.kill("SIGINT");
  });
}
