import type { Logger } from "../logger/index.js";
import type { ShutdownHandle } from "../queue/index.js";

/**
 * Rule: after an uncaught exception or an unhandled rejection the process is in a state nobody
 * planned for, so it does not carry on: the error is logged (the logger redacts secrets), the
 * process closes gracefully within SHUTDOWN_TIMEOUT_MS and exits 1 whatever the close did, for its
 * supervisor (docker's restart policy, systemd, `npm start`'s own) to start a fresh one.
 * Returns a function that removes the handlers.
 */
export function exitOnFatalErrors(shutdown: ShutdownHandle, logger: Logger): () => void {
  const onFatal = (kind: string) => (err: unknown) => {
    logger.fatal({ err }, `${kind}; stopping the process`);
    void shutdown.shutdown(kind, { failed: true });
  };
  const onException = onFatal("uncaught exception");
  const onRejection = onFatal("unhandled rejection");
  process.on("uncaughtException", onException);
  process.on("unhandledRejection", onRejection);
  return () => {
    process.off("uncaughtException", onException);
    process.off("unhandledRejection", onRejection);
  };
}
