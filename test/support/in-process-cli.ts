import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { runCli } from "../../src/cli/index.js";
import { type EngineHarness, REDIS_URL } from "./engine.js";

/**
 * The `billing` CLI run in this process (runCli) with exactly the environment a test gives it, a
 * data directory of its own, and silent logs: `billing(...)` answers exit code and output,
 * `json(...)` adds --json and parses stdout, failing on a non-zero exit with its stderr.
 */
export interface InProcessCli {
  readonly env: NodeJS.ProcessEnv;
  readonly dataDir: string;
  billing(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  json<T = Record<string, unknown>>(...args: string[]): Promise<T>;
  /** Removes the data directory. */
  close(): Promise<void>;
}

export async function inProcessCli(env: NodeJS.ProcessEnv, name: string): Promise<InProcessCli> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `billing-${name}-`));
  const full: NodeJS.ProcessEnv = {
    NODE_ENV: "test",
    ...env,
    BILLING_DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
  };
  const billing = async (...args: string[]) => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const code = await runCli(args, { stdout, stderr, env: full });
    return { code, stdout: stdout.read()?.toString() ?? "", stderr: stderr.read()?.toString() ?? "" };
  };
  return {
    env: full,
    dataDir,
    billing,
    async json<T>(...args: string[]) {
      const run = await billing(...args, "--json");
      if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
      return JSON.parse(run.stdout) as T;
    },
    close: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/** What the CLI needs to reach an engine harness: its database, queues, simulator and token key. */
export function harnessCliEnv(h: EngineHarness, start: string): NodeJS.ProcessEnv {
  const { config } = h.ctx;
  return {
    DATABASE_URL: config.DATABASE_URL,
    REDIS_URL,
    QUEUE_PREFIX: config.QUEUE_PREFIX,
    GATEWAY_BASE_URL: h.sim.url,
    GATEWAY_LEGACY_URL: h.sim.url,
    GATEWAY_API_KEY: h.sim.defaultApiKey,
    TOKEN_ENCRYPTION_KEY: config.TOKEN_ENCRYPTION_KEY,
    PUBLIC_URL: h.ctx.publicUrl,
    BILLING_CLOCK: "controllable",
    BILLING_CLOCK_START: start,
  };
}
