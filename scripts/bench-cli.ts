/**
 * CLI start-up benchmark (`npm run bench:cli`): how long one `billing` call takes as a whole process,
 * the way a script calling it once per record pays it. Each command runs BENCH_CLI_RUNS times after
 * one warm-up, the commands taking turns so a drift of the machine's speed hits them alike; it
 * prints the median wall time and CPU time (user + system, this process's reaped children from
 * /proc) of each, and each wall median as a multiple of a bare `node -e 0`:
 *   - `billing --help` through the bin (the compiled dist/ it picks when fresh) and through tsx;
 *   - `billing subscriptions list --json` the same two ways, on a database of
 *     BENCH_CLI_SUBSCRIPTIONS subscriptions.
 * The targets (issue 13): `--help` within 3 × `node -e 0`, the database read under 0.5 s wall.
 * dist/ is built first when missing or stale. Not a test: it judges nothing by exit code.
 *
 *   BENCH_CLI_RUNS           counted runs of each command (default 10)
 *   BENCH_CLI_SUBSCRIPTIONS  subscriptions in the database it creates (default 20)
 *   BENCH_CLI_TSX            0: skip the tsx rows (each run transpiles; slow on a busy machine)
 *   BENCH_CLI_DATABASE_URL   list this database's subscriptions instead (not seeded, not dropped)
 *   BENCH_DATABASE_URL       maintenance database of the PostgreSQL server where one is created
 *                            (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_JSON               1: also print every figure as one JSON line
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { z } from "zod";
import { migrateDatabase } from "../src/db/index.js";
import { withDatabase } from "../src/db/url.js";
import { distIsFresh } from "./build-state.mjs";

const env = z
  .object({
    BENCH_CLI_RUNS: z.coerce.number().int().min(1).max(100).default(10),
    BENCH_CLI_SUBSCRIPTIONS: z.coerce.number().int().min(1).max(100_000).default(20),
    BENCH_CLI_TSX: z.enum(["0", "1"]).default("1"),
    BENCH_CLI_DATABASE_URL: z.string().optional(),
    BENCH_DATABASE_URL: z.string().default("postgres://postgres@127.0.0.1:5432/postgres"),
    BENCH_JSON: z.enum(["0", "1"]).default("0"),
  })
  .parse(process.env);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "scripts", "billing.mjs");
const TSX = [
  "--import",
  fileURLToPath(new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url)),
  path.join(ROOT, "scripts", "billing.ts"),
];

interface Measured {
  name: string;
  args: string[];
  wall: number[];
  cpu: number[];
}

/** Clock ticks per second, the unit of /proc's CPU times. */
const TICKS_PER_SECOND =
  Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** CPU seconds of this process's reaped children (cutime + cstime), or NaN without /proc. */
function childrenCpuSeconds(): number {
  try {
    // The fields after the command name, which sits in parentheses and may hold spaces.
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND; // fields 16 and 17 of proc(5)
  } catch {
    return Number.NaN;
  }
}

/** One run to its end, its output read and thrown away; a failed run stops the benchmark. */
function runOnce(args: string[], childEnv: NodeJS.ProcessEnv): Promise<{ wall: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const cpuBefore = childrenCpuSeconds();
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let bytes = 0;
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) {
        reject(new Error(`node ${args.join(" ")} exited ${code} after ${bytes} bytes on stdout: ${stderr}`));
        return;
      }
      resolve({ wall, cpu: childrenCpuSeconds() - cpuBefore });
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A database of `count` active subscriptions (one plan, a customer each); dropped by the returned function. */
async function seededDatabase(count: number): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = withDatabase(env.BENCH_DATABASE_URL, `billing_benchcli_${randomBytes(5).toString("hex")}`);
  await migrateDatabase(url);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`
    with plan as (
      insert into plans (name, amount_minor, currency, interval_unit, interval_count)
      values ('Monthly', 10000, 'QAR', 'month', 1) returning id
    ), customer as (
      insert into customers (email, name)
      select 'bench-' || n || '@example.com', 'Customer ' || n from generate_series(1, ${count}) as n
      returning id
    )
    insert into subscriptions
      (customer_id, plan_id, status, billing_anchor, current_period_start, current_period_end, next_billing_at)
    select customer.id, plan.id, 'active', now(), now(), now() + interval '1 month', now() + interval '1 month'
    from customer, plan`;
  await sql.end();
  const admin = postgres(env.BENCH_DATABASE_URL, { max: 1, onnotice: () => {} });
  return {
    url,
    drop: async () => {
      await admin`drop database if exists ${admin(new URL(url).pathname.slice(1))} with (force)`;
      await admin.end();
    },
  };
}

async function main() {
  if (!distIsFresh()) {
    process.stderr.write("dist/ is missing or stale: building it first (npm run build)\n");
    const built = spawnSync(process.execPath, [path.join(ROOT, "scripts", "build.mjs")], {
      stdio: "inherit",
    });
    if (built.status !== 0) throw new Error("the build failed");
  }
  const database = env.BENCH_CLI_DATABASE_URL
    ? { url: env.BENCH_CLI_DATABASE_URL, drop: async () => {} }
    : await seededDatabase(env.BENCH_CLI_SUBSCRIPTIONS);
  // Only what a shell would pass: no tsx loader or vitest settings inherited from this process.
  const childEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: database.url };
  const list = ["subscriptions", "list", "--json"];
  const commands: Measured[] = [
    { name: "node -e 0", args: ["-e", "0"] },
    { name: "billing --help (compiled)", args: [BIN, "--help"] },
    ...(env.BENCH_CLI_TSX === "1" ? [{ name: "billing --help (tsx)", args: [...TSX, "--help"] }] : []),
    { name: "billing subscriptions list --json (compiled)", args: [BIN, ...list] },
    ...(env.BENCH_CLI_TSX === "1"
      ? [{ name: "billing subscriptions list --json (tsx)", args: [...TSX, ...list] }]
      : []),
  ].map((command) => ({ ...command, wall: [], cpu: [] }));
  try {
    for (let round = 0; round <= env.BENCH_CLI_RUNS; round += 1) {
      for (const command of commands) {
        const run = await runOnce(command.args, childEnv);
        if (round === 0) continue; // the warm-up: file cache, the database's first connection
        command.wall.push(run.wall);
        command.cpu.push(run.cpu);
      }
    }
  } finally {
    await database.drop();
  }
  if (!distIsFresh()) {
    throw new Error(
      "a source changed during the run, so the bin ran it through tsx: run the benchmark again",
    );
  }

  const node = median(commands[0]!.wall);
  const rows = commands.map((command) => ({
    command: command.name,
    wall_ms: Math.round(median(command.wall) * 1000),
    cpu_ms: Math.round(median(command.cpu) * 1000),
    wall_min_ms: Math.round(Math.min(...command.wall) * 1000),
    wall_max_ms: Math.round(Math.max(...command.wall) * 1000),
    times_node: Number((median(command.wall) / node).toFixed(2)),
  }));
  const width = Math.max(...rows.map((row) => row.command.length));
  const [one, five] = loadavg();
  const out = [
    `billing CLI start-up: median of ${env.BENCH_CLI_RUNS} runs after a warm-up; load average ${one?.toFixed(1)} (1 min), ${five?.toFixed(1)} (5 min)`,
    `${"command".padEnd(width)}  wall ms (min-max)      cpu ms  × node -e 0`,
    ...rows.map(
      (row) =>
        `${row.command.padEnd(width)}  ${`${row.wall_ms} (${row.wall_min_ms}-${row.wall_max_ms})`.padEnd(21)}  ` +
        `${Number.isNaN(row.cpu_ms) ? "n/a" : row.cpu_ms}`.padStart(6) +
        `  ${row.times_node.toFixed(2)}`,
    ),
  ];
  const help = rows.find((row) => row.command === "billing --help (compiled)")!;
  const read = rows.find((row) => row.command === "billing subscriptions list --json (compiled)")!;
  out.push(
    `targets: --help ${help.times_node.toFixed(2)} × node -e 0 (within 3: ${help.times_node <= 3 ? "yes" : "no"}); ` +
      `subscriptions list ${read.wall_ms} ms wall (under 500: ${read.wall_ms < 500 ? "yes" : "no"})`,
  );
  process.stdout.write(`${out.join("\n")}\n`);
  if (env.BENCH_JSON === "1") process.stdout.write(`${JSON.stringify({ runs: env.BENCH_CLI_RUNS, rows })}\n`);
}

await main();
