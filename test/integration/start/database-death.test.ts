import { type ChildProcess, spawn } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scriptArgs, waitFor } from "../cli/support.js";
import { freshDataDir, freshMachineEnv } from "./support.js";

/**
 * `npm start` with no configuration, whose embedded PostgreSQL is killed from outside: the operator
 * sees one clear line saying it stopped, where its data is and how to start again, and the engine
 * exits 1. Every pool of every worker loses its connections at that moment; their errors are one
 * outage, not a screen of JSON before that line.
 */

const workDirs: string[] = [];
const engines: ChildProcess[] = [];

afterAll(async () => {
  for (const engine of engines) if (engine.exitCode === null) engine.kill("SIGKILL");
  for (const workDir of workDirs) await rm(workDir, { recursive: true, force: true });
});

/** The JSON log lines at level error (50) or above. */
const errorLines = (text: string) =>
  text.split("\n").filter((line) => {
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 50;
    } catch {
      return false;
    }
  });

describe("npm start whose embedded PostgreSQL dies", () => {
  it("says so in one line, with its data directory and how to restart, and exits 1", async () => {
    const workDir = await freshDataDir("billing-pg-death-");
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
    const code = new Promise<number | null>((resolve) =>
      engine.once("exit", (exitCode) => resolve(exitCode)),
    );

    // The summary is printed once every worker runs, each with its pools open.
    await waitFor(
      "the engine's summary",
      async () => {
        if (engine.exitCode !== null)
          throw new Error(`npm start exited with ${engine.exitCode}:\n${output.stdout}${output.stderr}`);
        return output.stdout.includes("  runtime ") ? true : undefined;
      },
      { timeoutMs: 90_000, everyMs: 250 },
    );
    const running = output.stdout.length;
    const clusterDir = path.join(workDir, ".data", "postgres", "pgdata");
    const pid = Number((await readFile(path.join(clusterDir, "postmaster.pid"), "utf8")).split("\n")[0]);
    process.kill(pid, "SIGKILL");

    expect(await code).toBe(1);
    const lines = output.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `the embedded PostgreSQL (pid ${pid}, data in ${clusterDir}) was killed by SIGKILL`,
    );
    expect(lines[0]).toContain("Start the engine again (npm start)");
    // The first connection error may be told; the rest of the outage is not logged at error level.
    const errors = errorLines(output.stdout.slice(running));
    expect(errors.length, errors.join("\n")).toBeLessThanOrEqual(3);
  }, 120_000);
});
