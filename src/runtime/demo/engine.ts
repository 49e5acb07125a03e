import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger } from "../../logger/index.js";
import type { RunningSimulator } from "../../simulator/index.js";
import { type EngineProcess, startEngineProcess } from "../engine-process.js";
import { demoPorts } from "./ports.js";
import { TimeMachine } from "./time-machine.js";

/**
 * The engine as the demo (and the dashboard screenshot) run it: in this process, zero-config on
 * purpose (none of the caller's DATABASE_URL, REDIS_URL or gateway settings; only its port
 * settings, else free ports: ports.ts), with its own embedded PostgreSQL in a fresh temporary
 * directory (a user's .data is never touched), the simulator in-process, the HTTP server and the
 * workers on. There is no scheduler: the caller runs the billing tick through the TimeMachine,
 * right after each move of the clock.
 */

export interface DemoEngineOptions {
  /** Names the temporary directory and the logger. */
  name: string;
  /** Where the billing clock starts (ISO 8601). */
  start: string;
  /** Settings added to the zero-config environment. */
  env?: Record<string, string>;
}

export interface DemoEngine {
  engine: EngineProcess;
  simulator: RunningSimulator;
  time: TimeMachine;
  /** Stops the engine, then removes the temporary directory even when stopping failed. Idempotent. */
  close(): Promise<void>;
}

export async function startDemoEngine(options: DemoEngineOptions): Promise<DemoEngine> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `billing-${options.name}-`));
  // Ctrl-C in a terminal reaches the embedded PostgreSQL too, and the engine then exits at once
  // (engine-process.ts): the directory goes with the process even without close().
  const removeOnExit = () => rmSync(dataDir, { recursive: true, force: true });
  process.once("exit", removeOnExit);
  let engine: EngineProcess | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      try {
        await engine?.close();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
        process.off("exit", removeOnExit);
      }
    })();
    return closing;
  };
  try {
    // As root, the embedded PostgreSQL runs as the `postgres` user, which must reach the cluster inside.
    await chmod(dataDir, 0o755);
    engine = await startEngineProcess({
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        BILLING_DATA_DIR: dataDir,
        BILLING_CLOCK_START: options.start,
        TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        ...(await demoPorts(process.env)),
        QUEUE_BACKOFF_MS: "200",
        ...options.env,
      },
      logger: createLogger({ level: process.env.LOG_LEVEL || "error", name: options.name }),
      parts: { http: true, scheduler: false, workers: true },
    });
    const { simulator } = engine;
    if (!simulator) throw new Error(`the ${options.name} needs the in-process simulator`);
    return { engine, simulator, time: new TimeMachine(engine.ctx), close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
