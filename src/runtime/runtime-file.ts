import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

/**
 * `<data dir>/runtime.json`: where a running engine is and what it chose for itself (its database,
 * its queues, the in-process simulator, the billing clock), so that the CLI and the engine's other
 * processes started later from the same data directory reach the same engine instead of starting
 * a second database on the same cluster (PostgreSQL would refuse) or finding no gateway. Written by
 * a process that started something the others cannot find from their environment (the embedded
 * database, the in-process simulator), removed by it on shutdown. The file holds the database
 * password, as does `postgres/password` beside it, so it is readable by the owner only.
 */
const runtimeRecord = z.object({
  pid: z.number().int().positive(),
  started_at: z.string(),
  /** The engine's public URL. */
  url: z.string().nullable(),
  /** The embedded database, or DATABASE_URL when the engine was given one. */
  database_url: z.string(),
  /** REDIS_URL when the queues run on Redis; null on the PostgreSQL backend. */
  redis_url: z.string().nullable(),
  queue_prefix: z.string(),
  /** The in-process simulator, when the engine runs one. */
  gateway: z.object({ url: z.string(), api_key: z.string() }).nullable(),
  clock: z.enum(["system", "controllable"]),
  queue_backend: z.string(),
});

export type RuntimeRecord = z.infer<typeof runtimeRecord>;

export const runtimeFileOf = (dataDir: string): string => path.join(dataDir, "runtime.json");

export async function writeRuntimeRecord(dataDir: string, record: RuntimeRecord): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  // Written aside and renamed, so a reader never sees half a file.
  const temporary = `${runtimeFileOf(dataDir)}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, runtimeFileOf(dataDir));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The stored record; undefined when there is none or it is unreadable (a stale file to overwrite). */
async function readRecord(dataDir: string): Promise<RuntimeRecord | undefined> {
  const text = await readFile(runtimeFileOf(dataDir), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return runtimeRecord.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The record of an engine still running from `dataDir`; undefined when none or its process is gone. */
export async function readLiveRuntime(dataDir: string): Promise<RuntimeRecord | undefined> {
  const record = await readRecord(dataDir);
  return record && isAlive(record.pid) ? record : undefined;
}

/**
 * Writes the record unless another live process holds the file (an engine on another database run
 * from the same data directory): the first one stays the one the CLI finds. True when written.
 */
export async function claimRuntimeRecord(dataDir: string, record: RuntimeRecord): Promise<boolean> {
  const holder = await readLiveRuntime(dataDir);
  if (holder && holder.pid !== record.pid) return false;
  await writeRuntimeRecord(dataDir, record);
  return true;
}

/** Removes the record if it is still this process's (another owner may have replaced it). */
export async function removeRuntimeRecord(dataDir: string): Promise<void> {
  const record = await readRecord(dataDir);
  if (record && record.pid !== process.pid) return;
  await rm(runtimeFileOf(dataDir), { force: true });
}
