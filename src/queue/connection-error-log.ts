import { performance } from "node:perf_hooks";
import type { Logger } from "../logger/index.js";
import { briefError, isConnectionError } from "./connection-error.js";

/**
 * Logs the errors of many connections that fail together: the queue system's queues, workers and
 * listeners, and the roles a supervisor restarts. Rule: an outage of the backend is told once, not
 * once per pool, worker and retry (a dead database made every worker's pool print its own screen
 * of JSON). The first connection error (connection-error.ts) of an outage is logged at error level,
 * in brief; those that follow are logged at debug, until none has come for `quietMs`, when the
 * next one starts a new outage. Any other error is logged at error level, in full. Wall time: this
 * is about the process, not the billing calendar.
 */

export interface ConnectionErrorLogOptions {
  /** Defaults to 30 s. */
  quietMs?: number;
  /** Monotonic milliseconds; tests pass their own. */
  now?: () => number;
}

export type ConnectionErrorLog = (error: unknown, fields: Record<string, unknown>, msg: string) => void;

export function connectionErrorLog(
  logger: Logger,
  options: ConnectionErrorLogOptions = {},
): ConnectionErrorLog {
  const quietMs = options.quietMs ?? 30_000;
  const now = options.now ?? (() => performance.now());
  let lastConnectionErrorAt: number | undefined;
  return (error, fields, msg) => {
    if (!isConnectionError(error)) {
      logger.error({ err: error, ...fields }, msg);
      return;
    }
    const at = now();
    const ongoing = lastConnectionErrorAt !== undefined && at - lastConnectionErrorAt <= quietMs;
    lastConnectionErrorAt = at;
    if (ongoing) {
      logger.debug({ err: briefError(error), ...fields }, msg);
      return;
    }
    logger.error(
      { err: briefError(error), ...fields },
      `${msg}: lost the connection; its repeats are logged at debug level until ${quietMs / 1000} s pass without one`,
    );
  };
}
