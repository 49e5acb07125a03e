/**
 * HTTP load benchmark (`npm run bench:http`): under a flood of connections, does every
 * request get an answer within seconds (its page, a 429 from a rate limit or a 503 from load
 * shedding) instead of hanging until the client gives up? A zero-config engine (embedded
 * PostgreSQL in a temporary directory, in-memory rate limits, default settings) is started in this
 * process on 127.0.0.1, and a load process (scripts/bench/http-load.ts, autocannon) keeps
 * BENCH_HTTP_CONNECTIONS connections busy on loopback only, each going through an API GET with a
 * key, /readyz and the ops login page in turn, each connection BENCH_HTTP_RATE requests a second
 * (10,000 a second offered by default: several times what one process serves). It prints the
 * latency of answered requests (p50, p99, max), how many were answered within
 * BENCH_HTTP_ANSWER_SECONDS, the answers by status and the load process's own event-loop delay,
 * then a check line, which fails (exit 1) when a request waited longer than that without an
 * answer, when any 5xx but 503 came back, or when the load process lagged a second or more (its
 * timers then fire late and it measures itself, not the server: on a small machine with
 * BENCH_HTTP_RATE=0 it does).
 *
 *   BENCH_HTTP_CONNECTIONS     concurrent connections (default 10,000)
 *   BENCH_HTTP_RATE            requests a second per connection (default 1); 0: each connection
 *                              sends its next request as soon as the last is answered
 *   BENCH_HTTP_SECONDS         how long the load lasts (default 15)
 *   BENCH_HTTP_ANSWER_SECONDS  longest wait for an answer the check accepts (default 5)
 *   LOAD_SHED_*, API_RATE_*    the engine's own settings, passed on to it to try other values
 *
 * Each side needs a file descriptor per connection: the load process raises its own limit (ulimit
 * -n) when it may; this process's limit is reported, and the run refused when it is too low.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { createApiKey } from "../src/apikeys/index.js";
import { exitWhenFlushed } from "../src/cli/exit.js";
import { type DemoEngine, startDemoEngine } from "../src/runtime/demo/engine.js";
import type { LoadPlan, LoadResult } from "./bench/http-load.js";

const env = z
  .object({
    BENCH_HTTP_CONNECTIONS: z.coerce.number().int().min(1).max(100_000).default(10_000),
    BENCH_HTTP_RATE: z.coerce.number().int().min(0).max(1000).default(1),
    BENCH_HTTP_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
    BENCH_HTTP_ANSWER_SECONDS: z.coerce.number().int().min(1).max(120).default(5),
  })
  .parse(process.env);

const out = (line = "") => process.stdout.write(`${line}\n`);
const thousands = (n: number) => n.toLocaleString("en-US");
/** Delay of the load process's event loop past which its measurements are its own (ms). */
const CLIENT_LAG_LIMIT_MS = 1000;
/** Descriptors a side needs beyond its connections (database pool, logs, modules). */
const SPARE_FDS = 1000;

/** This process's soft limit of open files (Linux's /proc), or undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || soft === "unlimited" ? undefined : Number(soft);
  } catch {
    return undefined;
  }
}

/** Runs the load process (its fd limit raised to what it needs when allowed) and reads its result. */
function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "bench", "http-load.ts");
  const fds = plan.connections + SPARE_FDS;
  const child = spawn(
    "sh",
    [
      "-c",
      `ulimit -n ${fds} 2>/dev/null || echo "load: cannot raise the open-file limit to ${fds}" >&2; exec "$0" --import tsx "$1"`,
      process.execPath,
      script,
    ],
    { env: { ...process.env, BENCH_HTTP_PLAN: JSON.stringify(plan) }, stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const last = output.trim().split("\n").pop() ?? "";
      if (code !== 0 || !last.startsWith("{")) reject(new Error(`the load process exited ${code}`));
      else resolve(JSON.parse(last) as LoadResult);
    });
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function report(result: LoadResult): boolean {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  const answered = sorted.length;
  const within = sorted.filter((ms) => ms <= env.BENCH_HTTP_ANSWER_SECONDS * 1000).length;
  // A Map keeps this order when printed (an object would put "429" and "503" first).
  const classes = new Map(["2xx", "3xx", "429", "other 4xx", "503", "other 5xx"].map((name) => [name, 0]));
  out(`answers by request (${result.seconds} s):`);
  for (const [name, counts] of Object.entries(result.statuses)) {
    const shown = Object.entries(counts)
      .map(([status, n]) => `${status} ${thousands(n)}`)
      .join(", ");
    out(`  ${name.padEnd(14)} ${shown}`);
    for (const [status, n] of Object.entries(counts)) {
      const code = Number(status);
      const key =
        code === 429 || code === 503
          ? String(code)
          : code >= 500
            ? "other 5xx"
            : code >= 400
              ? "other 4xx"
              : code >= 300
                ? "3xx"
                : "2xx";
      classes.set(key, (classes.get(key) ?? 0) + n);
    }
  }
  out(`answers by status: ${[...classes].map(([name, n]) => `${name} ${thousands(n)}`).join(", ")}`);
  const fmt = (ms: number) => `${Math.round(ms)} ms`;
  out(
    `latency of answered requests: p50 ${fmt(percentile(sorted, 50))}, p99 ${fmt(percentile(sorted, 99))}, max ${fmt(sorted[answered - 1] ?? 0)}`,
  );
  out(
    `answered within ${env.BENCH_HTTP_ANSWER_SECONDS} s: ${thousands(within)} of ${thousands(answered)} answered (${answered ? ((within / answered) * 100).toFixed(1) : "0"} %)`,
  );
  out(
    `unanswered after ${env.BENCH_HTTP_ANSWER_SECONDS} s (timeouts): ${thousands(result.timeouts)}; connection errors: ${thousands(result.errors)}`,
  );
  out(`the load process's own event-loop delay: p99 ${fmt(result.lag.p99)}, max ${fmt(result.lag.max)}`);
  const otherServerErrors = classes.get("other 5xx") ?? 0;
  const failures = [
    ...(result.lag.p99 >= CLIENT_LAG_LIMIT_MS
      ? [
          `the load process lagged ${fmt(result.lag.p99)} (p99), so it measured itself: lower BENCH_HTTP_RATE or load from another machine`,
        ]
      : []),
    ...(result.timeouts > 0
      ? [`${thousands(result.timeouts)} requests waited over ${env.BENCH_HTTP_ANSWER_SECONDS} s unanswered`]
      : []),
    ...(otherServerErrors > 0 ? [`${thousands(otherServerErrors)} 5xx answers other than 503`] : []),
  ];
  out(failures.length === 0 ? "check: ok" : `check: FAILED (${failures.join("; ")})`);
  return failures.length === 0;
}

let engine: DemoEngine | undefined;
let passed = false;
try {
  const limit = openFileLimit();
  const needed = env.BENCH_HTTP_CONNECTIONS + SPARE_FDS;
  out(`open-file limit of the server process: ${limit ?? "unknown"} (needs about ${thousands(needed)})`);
  if (limit !== undefined && limit < needed) {
    throw new Error(`raise it (ulimit -n ${needed}) or lower BENCH_HTTP_CONNECTIONS`);
  }
  out("starting a zero-config engine (embedded PostgreSQL in a temporary directory)…");
  // The engine is zero-config, but for the settings this bench is about, taken from the environment.
  const settings = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        /^(LOAD_SHED|API_RATE|LOGIN)_/.test(entry[0]) && entry[1] !== undefined,
    ),
  );
  engine = await startDemoEngine({
    name: "bench-http",
    start: new Date().toISOString(),
    env: settings,
  });
  const url = new URL(engine.engine.url);
  if (url.hostname !== "127.0.0.1") throw new Error(`the engine listens on ${url.host}, not on loopback`);
  const { key } = await createApiKey(engine.engine.ctx.db, { name: "bench-http" });
  const requests: LoadPlan["requests"] = [
    { name: "GET /v1/plans", path: "/v1/plans", headers: { authorization: `Bearer ${key}` } },
    { name: "GET /readyz", path: "/readyz" },
    { name: "GET /ops/login", path: "/ops/login" },
  ];
  for (const request of requests) {
    const response = await fetch(new URL(request.path, url), { headers: request.headers ?? {} });
    out(`  ${request.name.padEnd(14)} answers ${response.status} unloaded`);
    await response.body?.cancel();
  }
  out(
    `loading ${url.origin} with ${thousands(env.BENCH_HTTP_CONNECTIONS)} connections for ${env.BENCH_HTTP_SECONDS} s, ${
      env.BENCH_HTTP_RATE > 0
        ? `${env.BENCH_HTTP_RATE} request(s) a second each (${thousands(env.BENCH_HTTP_RATE * env.BENCH_HTTP_CONNECTIONS)} a second offered)`
        : "each sending again as soon as answered"
    }…`,
  );
  const result = await runLoad({
    url: url.origin,
    connections: env.BENCH_HTTP_CONNECTIONS,
    seconds: env.BENCH_HTTP_SECONDS,
    answerSeconds: env.BENCH_HTTP_ANSWER_SECONDS,
    rate: env.BENCH_HTTP_RATE,
    requests,
  });
  passed = report(result);
  // Requests whose clients gave up still run: let them finish before the database stops.
  const drained = Date.now() + 60_000;
  while (Date.now() < drained) {
    const page = await fetch(new URL("/ops/login", url)).catch(() => undefined);
    await page?.body?.cancel();
    if (page?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
} catch (error) {
  process.stderr.write(`bench:http failed: ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await engine
    ?.close()
    .catch((error: unknown) => process.stderr.write(`stopping the engine failed: ${error}\n`));
}
await exitWhenFlushed(passed ? 0 : 1);
