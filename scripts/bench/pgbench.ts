/**
 * The same session's PostgreSQL baseline: `pgbench -N` (simple-update, no branch contention) on a
 * scratch database, so charges per second can be quoted as a ratio to what the server commits here.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import postgres from "postgres";
import { withDatabase } from "../../src/db/url.js";

const run = promisify(execFile);

export async function pgbenchTps(maintenanceUrl: string, seconds: number): Promise<number> {
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
    return Number(tps);
  } finally {
    await admin`drop database if exists ${admin(name)} with (force)`;
    await admin.end();
  }
}
