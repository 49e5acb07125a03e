import { performance } from "node:perf_hooks";
import type { Worker } from "node:worker_threads";
import type { Config } from "../config/index.js";
import { type Logger, logDestination } from "../logger/index.js";
import { recordTickRun, replayMetric } from "../metrics/index.js";
import { startModuleWorker } from "./module-worker.js";
import type { FromTickThread, TickResult, TickThreadData, ToTickThread } from "./tick-thread-messages.js";

/**
 * Runs the billing tick on an event loop of its own, a worker thread (tick-thread-entry.ts), so a
 * long tick neither stalls the process's HTTP server and workers nor waits behind them. Rules:
 * - the thread starts with the first tick and serves the next ones; a thread that fails or exits
 *   fails the tick in hand with its error, and the next tick starts a fresh thread;
 * - one tick at a time, as the scheduler's BullMQ worker hands them over (concurrency 1);
 * - its log lines are written by the process's logger, its metrics recorded in the process's
 *   registry (the thread's own is served by no /metrics); a tick the thread died in is counted
 *   failed here, since the thread never counted it;
 * - close() lets the thread close its engine and end, and terminates it past SHUTDOWN_TIMEOUT_MS.
 */

export interface TickThreadOptions {
  /** The process's resolved settings (the embedded database's URL, the simulator's API key). */
  config: Config;
  /** The in-process simulator, when the process runs one. */
  gatewayUrls?: { baseUrl: string; legacyUrl: string };
  logger: Logger;
}

export interface TickThread {
  /** Runs one tick in the thread; rejects with the tick's error, or the thread's when it died. */
  run(): Promise<TickResult>;
  /** Idempotent; ticks asked for afterwards are refused. */
  close(): Promise<void>;
}

interface TickInHand {
  resolve(result: TickResult): void;
  reject(error: Error): void;
  startedAt: number;
}

interface Running {
  worker: Worker;
  exited: Promise<void>;
  tick?: TickInHand | undefined;
}

/** The tick's error as the thread described it, its stack included. */
function errorOf(described: { name: string; message: string; stack?: string }): Error {
  return Object.assign(new Error(described.message), described);
}

export function startTickThread(options: TickThreadOptions): TickThread {
  const { config, logger } = options;
  const destination = logDestination(logger);
  const data: TickThreadData = {
    config,
    ...(options.gatewayUrls ? { gatewayUrls: options.gatewayUrls } : {}),
    logLevel: logger.level,
    logBindings: logger.bindings(),
  };
  let current: Running | undefined;
  let closing: Promise<void> | undefined;

  function settle(running: Running, outcome: (tick: TickInHand) => void): void {
    const tick = running.tick;
    running.tick = undefined;
    if (tick) outcome(tick);
  }

  function spawn(): Running {
    const worker = startModuleWorker(import.meta.url, "tick-thread-entry", { workerData: data });
    let failure: Error | undefined;
    const running: Running = {
      worker,
      exited: new Promise((resolve) => {
        worker.once("exit", (code) => {
          if (current === running) current = undefined;
          const why = failure ? `failed: ${failure.message}` : `exited with code ${code}`;
          if (!closing)
            logger.error({ err: failure }, `the tick thread ${why}; the next tick starts a fresh one`);
          settle(running, (tick) => {
            recordTickRun("failed", (performance.now() - tick.startedAt) / 1000);
            tick.reject(new Error(`the tick thread ${why} during the tick`, { cause: failure }));
          });
          resolve();
        });
      }),
    };
    worker.on("error", (error) => {
      failure = error;
    });
    worker.on("message", (message: FromTickThread) => {
      if (message.type === "metric") replayMetric(message.record);
      else if (message.type === "log") destination.write(message.line);
      else if (message.type === "done") settle(running, (tick) => tick.resolve(message.result));
      else settle(running, (tick) => tick.reject(errorOf(message.error)));
    });
    return running;
  }

  const send = (running: Running, message: ToTickThread) => running.worker.postMessage(message);

  return {
    run() {
      if (closing) return Promise.reject(new Error("the tick thread is closed"));
      current ??= spawn();
      const running = current;
      if (running.tick) return Promise.reject(new Error("a tick is already running in the tick thread"));
      return new Promise<TickResult>((resolve, reject) => {
        running.tick = { resolve, reject, startedAt: performance.now() };
        send(running, { type: "tick" });
      });
    },
    close() {
      closing ??= (async () => {
        const running = current;
        current = undefined;
        if (!running) return;
        send(running, { type: "close" });
        // A thread whose engine hangs on close must not hold the process.
        const timer = setTimeout(() => void running.worker.terminate(), config.SHUTDOWN_TIMEOUT_MS);
        await running.exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}
