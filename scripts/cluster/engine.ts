/**
 * The engine as the cluster test deploys it: every engine process (workers/*.ts) runs inside its
 * host's namespace with the environment an operator would give a machine of its own (DATABASE_URL
 * and REDIS_URL at the db host, GATEWAY_* at the sim host, one token key, one QUEUE_PREFIX, one
 * shared gateway budget), and this process keeps an engine context of its own for seeding and
 * reading, as an operator's machine would.
 *
 * Settings that differ from the engine's defaults, and why (all are ordinary settings):
 * - GATEWAY_TIMEOUT_MS 5000: the quiet period after which another worker may settle an attempt
 *   it did not send is 2 × timeout + 30 s (charging/quiet-period.ts): 40 s instead of 60 s;
 * - BILLING_TICK_SECONDS 1, QUEUE_BACKOFF_MS 500: a charge held by the cut host is handed out
 *   again within a second or two of its attempt falling quiet (claiming clears its dispatch, so no
 *   lease holds it back); CHARGE_REDISPATCH_AFTER_SECONDS 30 (a lost job's charges are handed out
 *   again after 30 s; shorter would hand the run's own backlog out again and again);
 * - LATE_PAYMENT_FIRST_CHECK_SECONDS 2, LATE_PAYMENT_MAX_CHECK_INTERVAL_SECONDS 5: a payment the
 *   gateway applies late (a request of the cut host delivered when the cut heals) is looked for
 *   within seconds, not minutes;
 * - WORKER_CONNECTION_GRACE_MS: longer than the longest cut, so the cut worker is still running
 *   when its network comes back (the harder case: it resumes with what it held); past it the
 *   process would exit by itself (src/runtime/README.md);
 * - SHUTDOWN_TIMEOUT_MS 10000, LOG_LEVEL warn.
 */
import { randomBytes } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import type { WorkerProcess } from "../bench/processes.js";
import { type Host, spawnIn } from "./network.js";

export interface EngineSettings {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly simUrl: string;
  readonly apiKey: string;
  /** The gateway budget every process shares (GATEWAY_RATE_PER_SECOND). */
  readonly rate: number;
  /** WORKER_CONNECTION_GRACE_MS. */
  readonly connectionGraceMs: number;
  /** GATEWAY_RATE_WINDOW_MS; the engine's default when absent. */
  readonly rateWindowMs?: number;
}

export function engineEnv(settings: EngineSettings): Record<string, string> {
  return {
    NODE_ENV: "production",
    BILLING_CLOCK: "system",
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    QUEUE_PREFIX: `cluster_${randomBytes(4).toString("hex")}`,
    GATEWAY_BASE_URL: settings.simUrl,
    GATEWAY_LEGACY_URL: settings.simUrl,
    GATEWAY_API_KEY: settings.apiKey,
    GATEWAY_RATE_PER_SECOND: String(settings.rate),
    ...(settings.rateWindowMs === undefined ? {} : { GATEWAY_RATE_WINDOW_MS: String(settings.rateWindowMs) }),
    GATEWAY_TIMEOUT_MS: "5000",
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    TOKEN_ENCRYPTION_KEY_ID: "cluster",
    PUBLIC_URL: "http://127.0.0.1:9",
    BILLING_TICK_SECONDS: "1",
    CHARGE_REDISPATCH_AFTER_SECONDS: "30",
    QUEUE_BACKOFF_MS: "500",
    LATE_PAYMENT_FIRST_CHECK_SECONDS: "2",
    LATE_PAYMENT_MAX_CHECK_INTERVAL_SECONDS: "5",
    WORKER_CONNECTION_GRACE_MS: String(settings.connectionGraceMs),
    SHUTDOWN_TIMEOUT_MS: "10000",
    LOG_LEVEL: "warn",
  };
}

export interface EngineProcess extends WorkerProcess {
  readonly name: string;
  readonly host: Host;
  readonly log: string;
  /** performance.now() of the exit, when it has exited. */
  exitedAt?: number;
}

/** Starts workers/<script> on a host, its output in <logDir>/<name>.log. */
export function startEngineProcess(
  host: Host,
  name: string,
  script: string,
  env: Record<string, string>,
  logDir: string,
): EngineProcess {
  const log = join(logDir, `${name}.log`);
  const fd = openSync(log, "a");
  const child = spawnIn(host, process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", fd, fd],
  });
  closeSync(fd);
  const proc: EngineProcess = {
    name,
    host,
    log,
    child,
    exited: new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        proc.exitedAt = performance.now();
        resolve({ code, signal });
      });
      child.once("error", () => resolve({ code: child.exitCode, signal: child.signalCode }));
    }),
  };
  return proc;
}
