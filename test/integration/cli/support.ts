import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, where the CLI runs unless a test gives another working directory. */
export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const TSX_LOADER = fileURLToPath(
  new URL("../../../node_modules/tsx/dist/loader.mjs", import.meta.url),
);

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The node arguments that run one of our TypeScript scripts, from any working directory. */
export function scriptArgs(script: "start" | "demo"): string[] {
  return ["--import", TSX_LOADER, path.join(REPO_ROOT, "scripts", `${script}.ts`)];
}

/**
 * A child process run to its exit with exactly `env`, its output collected; killed and failed after
 * `timeoutMs`.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  { cwd = REPO_ROOT, timeoutMs = 60_000 } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} did not finish in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `node …nodeArgs` as a child process with exactly `env`, its output collected. */
export function runNode(
  nodeArgs: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return runProcess(process.execPath, nodeArgs, env, options);
}

/**
 * The `billing` bin (scripts/billing.mjs) as a child process with exactly `env`: what an operator
 * runs, so the compiled CLI when dist/ is fresh and the sources through tsx when they changed.
 */
export function runBilling(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return runNode([path.join(REPO_ROOT, "scripts", "billing.mjs"), ...args], env, options);
}

/** The one JSON document a successful `--json` run printed; fails with its stderr otherwise. */
export function jsonOf<T>(run: CliRun): T {
  if (run.code !== 0) throw new Error(`exit code ${run.code}\nstderr: ${run.stderr}\nstdout: ${run.stdout}`);
  return JSON.parse(run.stdout) as T;
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  { timeoutMs = 30_000, everyMs = 100 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`, { cause: lastError });
}
