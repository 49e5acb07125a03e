/**
 * The bench's own Redis (when BENCH_REDIS_URL is not given): a redis-server child on a free
 * loopback port, keeping nothing on disk, so the Redis commands per charge the bench prints are
 * this run's alone, not those of every other client of a shared server. Ready once it answers
 * PING; stopped with the run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { Redis } from "ioredis";
import { findFreePort } from "../../src/infra/index.js";

export interface BenchRedis {
  readonly url: string;
  stop(): Promise<void>;
}

const READY_MS = 10_000;

export async function startBenchRedis(): Promise<BenchRedis> {
  const port = await findFreePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // A refusal before the server listens reaches the loop through connect(); not an unhandled event.
  probe.on("error", () => undefined);
  const deadline = Date.now() + READY_MS;
  for (;;) {
    try {
      await probe.connect();
      await probe.ping();
      break;
    } catch (error) {
      probe.disconnect();
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill("SIGKILL");
        throw new Error(`the bench's redis-server did not answer on ${url}: ${String(error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  probe.disconnect();
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
