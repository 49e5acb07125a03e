/**
 * Child processes of the benchmark and the chaos suite: the gateway simulator (scripts/gateway.ts)
 * and engine worker processes (workers/*.ts), each a separate Node process so that none shares the
 * runner's event loop. Rules: a process is started with the environment it is given and nothing
 * else; readiness is observed (the simulator's printed URL, BullMQ's worker list), never slept on;
 * stopping is SIGTERM (graceful), then SIGKILL past a limit.
 */
import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { BillingQueue } from "../../src/queue/index.js";

export interface SimulatorProcess {
  readonly url: string;
  readonly apiKey: string;
  readonly child: ChildProcess;
}

/** Starts scripts/gateway.ts (a free port unless `env` names one) and reads its URL and API key. */
export async function startSimulatorProcess(env: NodeJS.ProcessEnv = {}): Promise<SimulatorProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/gateway.ts"], {
    env: { ...process.env, GATEWAY_SIM_PORT: "0", LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  let url = "";
  let apiKey = "";
  for await (const line of lines) {
    url ||= /listening on (\S+)/.exec(line)?.[1] ?? "";
    apiKey ||= /api key: (\S+)/.exec(line)?.[1] ?? "";
    if (url && apiKey) break;
  }
  if (!url || !apiKey) throw new Error("the simulator did not print its URL and API key");
  return { url, apiKey, child };
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
}

/** Starts one engine process (`script`, e.g. workers/charge-worker.ts); nothing is awaited here. */
export function startWorkerProcess(
  script: string,
  env: NodeJS.ProcessEnv,
  options: { nodeArgs?: readonly string[]; stdio?: StdioOptions } = {},
): WorkerProcess {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", script], {
    env,
    stdio: options.stdio ?? ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: child.exitCode, signal: child.signalCode }));
  });
  return { child, exited };
}

export function hasExited({ child }: WorkerProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null || child.pid === undefined;
}

/**
 * Resolves once BullMQ lists at least `count` workers on `queue` (CLIENT LIST names); throws when
 * one of `watched` exits first or `timeoutMs` passes.
 */
export async function waitForWorkers(
  queue: BillingQueue,
  count: number,
  watched: readonly WorkerProcess[],
  timeoutMs: number,
): Promise<void> {
  const start = performance.now();
  for (;;) {
    const dead = watched.find(hasExited);
    if (dead) {
      throw new Error(
        `worker process ${dead.child.pid ?? "(not started)"} exited (code ${dead.child.exitCode}, signal ${dead.child.signalCode}) before it was ready`,
      );
    }
    if ((await queue.getWorkersCount()) >= count) return;
    if (performance.now() - start > timeoutMs) {
      throw new Error(`${count} workers were not ready in ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGTERM (graceful shutdown), then SIGKILL past `killAfterMs`; returns the exits. Idempotent. */
export async function stopWorkerProcesses(
  workers: readonly WorkerProcess[],
  killAfterMs: number,
): Promise<Exit[]> {
  return Promise.all(
    workers.map(async (worker) => {
      if (!hasExited(worker)) worker.child.kill("SIGTERM");
      const timer = setTimeout(() => worker.child.kill("SIGKILL"), killAfterMs);
      try {
        return await worker.exited;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
