import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsonOf, runBilling, scriptArgs, waitFor } from "../cli/support.js";
import { freshMachineEnv } from "./support.js";

/**
 * `npm start` on a fresh machine: no configuration at all but free ports (PATH and HOME, and PORT,
 * GATEWAY_SIM_PORT and EMBEDDED_POSTGRES_PORT, so that neither parallel suites nor an engine or
 * simulator already running collide with it), in an empty working directory whose `.data` it fills.
 * It must listen where those say, start an embedded PostgreSQL, BullMQ on it and the simulator
 * in-process, serve /healthz and its API docs at the address it prints, become ready on /readyz
 * once its first tick ran, let the CLI find it through .data/runtime.json, and exit 0 on SIGTERM
 * without restarting the workers it closes.
 */

const workDirs: string[] = [];
const engines: ChildProcess[] = [];

afterAll(async () => {
  for (const engine of engines) if (engine.exitCode === null) engine.kill("SIGKILL");
  for (const workDir of workDirs) await rm(workDir, { recursive: true, force: true });
});

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

/** `npm start` with no configuration in a fresh directory, once it serves /healthz. */
async function startEngine() {
  // 0700, like root's home: as root, the embedded PostgreSQL runs as the `postgres` user, which
  // cannot pass through it, and must work anyway.
  const workDir = await mkdtemp(path.join(tmpdir(), "billing-start-"));
  workDirs.push(workDir);
  const env = await freshMachineEnv();
  const engine = spawn(process.execPath, scriptArgs("start"), {
    cwd: workDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  engines.push(engine);
  const output = { stdout: "", stderr: "" };
  engine.stdout?.on("data", (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  engine.stderr?.on("data", (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const code = exited(engine);

  await waitFor(
    "/healthz",
    async () => {
      if (engine.exitCode !== null)
        throw new Error(`npm start exited with ${engine.exitCode}:\n${output.stdout}${output.stderr}`);
      const response = await fetch(`http://127.0.0.1:${env.PORT}/healthz`).catch(() => undefined);
      return response?.ok ? response : undefined;
    },
    { timeoutMs: 90_000, everyMs: 250 },
  );
  return { workDir, env, engine, output, code };
}

describe("npm start with no configuration", () => {
  it("starts everything, serves /healthz and /readyz, is found by the CLI, and stops on SIGTERM", async () => {
    const { workDir, env, engine, output, code } = await startEngine();
    await waitFor("the summary", async () =>
      output.stdout.includes("  runtime ") ? output.stdout : undefined,
    );
    const { stdout } = output;
    expect(stdout).toContain("billing engine running: HTTP server, scheduler and its status checks, workers");
    expect(stdout).toContain("embedded PostgreSQL");
    expect(stdout).toContain("BullMQ on PostgreSQL");
    expect(stdout).toContain(
      `  HTTP        http://127.0.0.1:${env.PORT}  (public URL http://localhost:${env.PORT};`,
    );
    expect(stdout).toMatch(
      new RegExp(
        `simulator in-process at http://127\\.0\\.0\\.1:${env.GATEWAY_SIM_PORT}, merchant API key [0-9a-f-]{36}`,
      ),
    );
    expect(stdout).toContain("clock       controllable");

    // /docs "Try it out" from the printed address: the document's server, resolved against where
    // Swagger UI loaded it, is that address, and the API answers there.
    const printed = `http://127.0.0.1:${env.PORT}`;
    const document = (await (await fetch(`${printed}/docs/json`)).json()) as { servers: { url: string }[] };
    const base = new URL(document.servers[0]!.url, `${printed}/docs/json`).href.replace(/\/$/, "");
    expect(base).toBe(printed);
    const unauthenticated = await fetch(`${base}/v1/plans`);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("content-type")).toMatch(/^application\/problem\+json/);

    const runtimeFile = path.join(workDir, ".data", "runtime.json");
    const runtime = JSON.parse(await readFile(runtimeFile, "utf8")) as { pid: number; clock: string };
    expect(runtime).toMatchObject({ pid: engine.pid, clock: "controllable" });

    // The CLI, run from the same directory with no configuration, joins that engine.
    const migrated = jsonOf<{ database: string }>(
      await runBilling(["migrate", "--json"], env, { cwd: workDir }),
    );
    expect(migrated.database).toBe("shared");
    const moved = jsonOf<{ simulator: string }>(
      await runBilling(["clock", "advance", "1mo", "--json"], env, { cwd: workDir }),
    );
    expect(moved.simulator).toBe("moved");

    // Ready once the tick its scheduler registered at boot has run, and `billing status` agrees.
    const ready = await waitFor(
      "/readyz after the first tick",
      async () => {
        const response = await fetch(`http://127.0.0.1:${env.PORT}/readyz`);
        const body = (await response.json()) as {
          status: string;
          checks: { tick: { detail: { runs: number } } };
        };
        return response.status === 200 && body.checks.tick.detail.runs >= 1 ? body : undefined;
      },
      { timeoutMs: 90_000, everyMs: 250 },
    );
    expect(ready.status).toBe("ready");
    const status = await runBilling(["status", "--json"], env, { cwd: workDir });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: "ready" });

    engine.kill("SIGTERM");
    expect(await code).toBe(0);
    await expect(stat(runtimeFile)).rejects.toThrow();
    // The workers closed on shutdown were not taken for failed ones.
    expect(output.stdout).toContain("shut down");
    expect(output.stdout).not.toContain("role failed");
  }, 180_000);
});
