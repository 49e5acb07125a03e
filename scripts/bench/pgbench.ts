/**
 * The same session's PostgreSQL baseline: `pgbench -N` (simple-update, no branch contention) on a
 * scratch database, so charges per second can be quoted as a ratio to what the server commits here,
 * and PostgreSQL's CPU per charge as a multiple of what one pgbench transaction costs it (two row
 * writes, one read, one commit). That CPU is read from the postmaster, which counts the backends
 * pgbench used once they have exited; the server's own processes add a little. Undefined when the
 * server is not on this machine.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import postgres from "postgres";
import { withDatabase } from "../../src/db/url.js";
import { parentPid, reapedCpuMs } from "./counters.js";

const run = promisify(execFile);

export interface PgbenchRun {
  readonly tps: number;
  readonly postgresCpuMsPerTransaction: number | undefined;
}

export async function pgbenchRun(maintenanceUrl: string, seconds: number): Promise<PgbenchRun> {
  const name = `pgbench_${process.pid}`;
  const admin = postgres(maintenanceUrl, { max: 1, onnotice: () => {} });
  const url = new URL(withDatabase(maintenanceUrl, name));
  const connection = [
    "-h",
    url.hostname,
    "-p",
    url.port || "5432",
    "-U",
    decodeURIComponent(url.username || "postgres"),
  ];
  try {
    await admin`drop database if exists ${admin(name)}`;
    await admin`create database ${admin(name)}`;
    await run("pgbench", [...connection, "-i", "-q", "-s", "10", name]);
    const [backend] = await admin<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const postmaster = await parentPid(backend!.pid);
    const cpuBefore = postmaster === undefined ? undefined : await reapedCpuMs(postmaster);
    const { stdout } = await run("pgbench", [
      ...connection,
      "-N",
      "-c",
      "8",
      "-j",
      "2",
      "-T",
      String(seconds),
      name,
    ]);
    const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    const cpuAfter = postmaster === undefined ? undefined : await reapedOnce(admin, name, postmaster);
    const transactions = Number(/actually processed: (\d+)/.exec(stdout)?.[1] ?? Number.NaN);
    const postgresCpuMsPerTransaction =
      cpuBefore === undefined || cpuAfter === undefined || !(transactions > 0)
        ? undefined
        : (cpuAfter - cpuBefore) / transactions;
    return { tps: Number(tps), postgresCpuMsPerTransaction };
  } finally {
    await admin`drop database if exists ${admin(name)} with (force)`;
    await admin.end();
  }
}

/**
 * The postmaster's count once pgbench's backends are gone and reaped: they exit after pgbench does,
 * and the postmaster adds their CPU when it waits for them, so it is read until it stops changing.
 */
async function reapedOnce(admin: postgres.Sql, database: string, postmaster: number) {
  const deadline = performance.now() + 5_000;
  let last: number | undefined;
  while (performance.now() < deadline) {
    const [{ left } = { left: 0 }] = await admin<{ left: number }[]>`
      select count(*)::int as left from pg_stat_activity where datname = ${database}`;
    const now = await reapedCpuMs(postmaster);
    if (left === 0 && now !== undefined && now === last) return now;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}
