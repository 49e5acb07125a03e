import type { Logger } from "../logger/index.js";
import { silentLogger } from "../logger/index.js";

/** Something to close on shutdown: an object with `close()` (the queue system, a pool) or a function. */
export type Closable = { close(): Promise<unknown> } | (() => Promise<unknown>);

export interface GracefulShutdownOptions {
  /** Defaults to SIGTERM and SIGINT. */
  signals?: readonly NodeJS.Signals[];
  logger?: Logger;
  /** Whole-shutdown budget; past it the process exits with code 1. Defaults to 30 s. */
  timeoutMs?: number;
  /** Defaults to `process.exit`; tests pass a stub. */
  exit?: (code: number) => void;
}

export interface ShutdownHandle {
  /**
   * Shuts down now, as a signal would, and resolves with the exit code it passed to `exit`. With
   * `failed` the code is 1 even after a clean close: the process stops because something broke.
   */
  shutdown(reason: string, options?: { failed?: boolean }): Promise<number>;
  /** Removes the signal handlers, for a process that shuts down by other means. */
  dispose(): void;
}

const TIMED_OUT = Symbol("timed out");

/**
 * On the first signal, closes `closables` one after another in the order given and exits 0; a
 * second signal, a failure or the timeout exits 1. Put the queue system first: its close() stops
 * workers taking jobs and waits for the ones in hand, and those still need the database, so pools
 * and an embedded Postgres come after it.
 *
 * A job still running when the timeout fires is not lost: its lock lapses and BullMQ's stalled-job
 * check hands it to another worker, which is why processors must be idempotent.
 */
export function gracefulShutdown(
  closables: readonly Closable[],
  options: GracefulShutdownOptions = {},
): ShutdownHandle {
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  const logger = (options.logger ?? silentLogger).child({ component: "shutdown" });
  const timeoutMs = options.timeoutMs ?? 30_000;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let running: Promise<number> | undefined;

  const closeAll = async (): Promise<boolean> => {
    let clean = true;
    for (const [index, closable] of closables.entries()) {
      try {
        await (typeof closable === "function" ? closable() : closable.close());
      } catch (err) {
        clean = false;
        logger.error({ err, index }, "closing failed; continuing with the rest");
      }
    }
    return clean;
  };

  const run = async (reason: string, failed = false): Promise<number> => {
    logger.info({ reason, timeoutMs }, "shutting down");
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
      timer.unref();
    });
    const outcome = await Promise.race([closeAll(), deadline]);
    clearTimeout(timer);
    const code = outcome === true && !failed ? 0 : 1;
    if (outcome === TIMED_OUT) logger.error({ timeoutMs }, "shutdown timed out");
    else logger.info({ code }, "shut down");
    exit(code);
    return code;
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (running) {
      logger.warn({ signal }, "second signal during shutdown; exiting now");
      exit(1);
      return;
    }
    running = run(signal);
  };

  for (const signal of signals) process.on(signal, onSignal);

  return {
    shutdown(reason, { failed = false } = {}) {
      running ??= run(reason, failed);
      return running;
    },
    dispose() {
      for (const signal of signals) process.off(signal, onSignal);
    },
  };
}
