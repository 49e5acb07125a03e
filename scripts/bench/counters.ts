/**
 * What the benchmark reads before and after the charging window, to print a per-charge budget:
 * CPU from /proc (the whole machine, and each process group), commits from pg_stat_database,
 * statements from pg_stat_statements when the server loads it, and Redis commands from INFO
 * commandstats. Linux only; a figure that cannot be read is undefined and printed as n/a.
 */
import { readdir, readFile } from "node:fs/promises";
import type { Redis } from "ioredis";
import type postgres from "postgres";

const TICKS_PER_SECOND = 100;

/** Busy CPU ms of the whole machine since boot (every field of /proc/stat's cpu line but idle and iowait). */
export async function machineBusyMs(): Promise<number | undefined> {
  try {
    const line = (await readFile("/proc/stat", "utf8")).split("\n")[0]!;
    const [, ...fields] = line.trim().split(/\s+/).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields as number[];
    void idle;
    void iowait;
    return ((user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * The fields of /proc/<pid>/stat after the command name (state first, so utime is [11]), or
 * undefined when the process is gone.
 */
async function statFields(pid: number): Promise<string[] | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  return stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
}

const cpuMsOf = (fields: string[], at: readonly number[]) =>
  (at.reduce((sum, i) => sum + Number(fields[i]), 0) * 1000) / TICKS_PER_SECOND;

/** CPU ms (user + system) a process has used, from /proc/<pid>/stat. */
export async function processCpuMs(pid: number | undefined): Promise<number | undefined> {
  const fields = pid === undefined ? undefined : await statFields(pid);
  return fields && cpuMsOf(fields, [11, 12]);
}

/**
 * CPU ms of a process and of its children that have exited and been waited for: for PostgreSQL's
 * postmaster, every backend that has come and gone (a pgbench run's), which /proc no longer lists.
 */
export async function reapedCpuMs(pid: number): Promise<number | undefined> {
  const fields = await statFields(pid);
  return fields && cpuMsOf(fields, [11, 12, 13, 14]);
}

/** The parent of a process (a backend's parent is the postmaster). */
export async function parentPid(pid: number): Promise<number | undefined> {
  const fields = await statFields(pid);
  return fields && Number(fields[1]);
}

/**
 * CPU ms of the PostgreSQL processes that work for this run, by pid: the backends of `database`
 * (their title names it) and the server's own processes (checkpointer, WAL writer, …: no database
 * in their title), but not other databases' backends on a shared server. Read while the backends
 * live: an exited backend's CPU is gone from /proc, so read it before the workers stop.
 */
export async function postgresCpu(database: string): Promise<Map<number, number> | undefined> {
  try {
    const found = new Map<number, number>();
    for (const entry of await readdir("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
      if (!stat.includes("(postgres)")) continue;
      const title = (await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "")).replaceAll("\0", " ");
      // A backend's title is "postgres: <cluster>: <user> <database> <client(port)> <state>", an
      // autovacuum worker's "… autovacuum worker <database>"; the server's own have neither.
      const of =
        /^postgres: \S+: \S+ (\S+) (?:\[local\]|\S+\(\d+\))/.exec(title)?.[1] ??
        /autovacuum worker (\S+)/.exec(title)?.[1];
      if (of !== undefined && of !== database) continue;
      const ms = await processCpuMs(Number(entry));
      if (ms !== undefined) found.set(Number(entry), ms);
    }
    return found;
  } catch {
    return undefined;
  }
}

/** CPU ms spent between two readings (a process that appeared since counts from nothing). */
export function cpuSince(
  after: Map<number, number> | undefined,
  before: Map<number, number> | undefined,
): number | undefined {
  if (!after || !before) return undefined;
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

export interface PgCounters {
  readonly commits: number;
  readonly statements: number | undefined;
}

/**
 * Commits (and rollbacks) of one database, and its statements when pg_stat_statements is loaded:
 * top level only, so the key checks and trigger queries a server tracking nested statements counts
 * are not mistaken for statements we sent.
 */
export async function pgCounters(admin: postgres.Sql, database: string): Promise<PgCounters> {
  const [row] = await admin<{ commits: string }[]>`
    select xact_commit + xact_rollback as commits from pg_stat_database where datname = ${database}`;
  let statements: number | undefined;
  try {
    const [calls] = await admin<{ calls: string | null }[]>`
      select sum(calls) as calls from pg_stat_statements s
      join pg_database d on d.oid = s.dbid where d.datname = ${database} and s.toplevel`;
    statements = Number(calls?.calls ?? 0);
  } catch {
    statements = undefined;
  }
  return { commits: Number(row?.commits ?? 0), statements };
}

export interface WalCounters {
  readonly bytes: number;
  readonly fullPageImages: number;
}

/**
 * WAL the whole server has written since its statistics were reset (pg_stat_wal, PostgreSQL 14
 * and later): bytes, and how many of its records carry a full page image, the copy of a whole
 * 8 kB page PostgreSQL logs the first time it changes after a checkpoint.
 */
export async function walCounters(admin: postgres.Sql): Promise<WalCounters | undefined> {
  try {
    const [row] = await admin<{ bytes: string; fpi: string }[]>`
      select wal_bytes::text as bytes, wal_fpi::text as fpi from pg_stat_wal`;
    return row && { bytes: Number(row.bytes), fullPageImages: Number(row.fpi) };
  } catch {
    return undefined;
  }
}

/**
 * Makes each of a pool's open connections report its pending statistics now. A backend reports
 * them lazily (PostgreSQL 15: at most once a second, and an idle one only after 10 s), so the
 * seeding's and the vacuum's WAL and commits would otherwise be counted in the charging window.
 * Only the connections already open: one opened here would start the window without the prepared
 * statements a running pool has, and the empty ticks measured after it would pay for them.
 * The pool's connections are told from others by their application_name.
 */
export async function flushStatistics(sql: postgres.Sql): Promise<void> {
  const [row] = await sql<{ open: number }[]>`
    select count(*)::int as open from pg_stat_activity
    where datname = current_database() and application_name = current_setting('application_name')`;
  const reserved = await Promise.all(Array.from({ length: row?.open ?? 1 }, () => sql.reserve()));
  try {
    await Promise.all(reserved.map((connection) => connection`select pg_stat_force_next_flush()`));
  } finally {
    for (const connection of reserved) connection.release();
  }
}

/** Commands Redis has run since its start (sum of INFO commandstats calls). */
export async function redisCommands(redis: Redis | undefined): Promise<number | undefined> {
  if (!redis) return undefined;
  const info = await redis.info("commandstats");
  let total = 0;
  for (const match of info.matchAll(/calls=(\d+)/g)) total += Number(match[1]);
  return total;
}
