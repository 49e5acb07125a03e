import { parentPort, threadId, workerData } from "node:worker_threads";
import { createEngine, runTick } from "../app/index.js";
import { createLogger } from "../logger/index.js";
import { redirectMetrics } from "../metrics/index.js";
import type { FromTickThread, TickThreadData, ToTickThread } from "./tick-thread-messages.js";

/**
 * The tick thread (tick-thread.ts starts it): an engine context of its own (its database pool, its
 * queue connections, its clock read from the database at each tick's start) that runs one tick per
 * "tick" message and answers with its result or its error. Its log lines and metrics go to the
 * process, which writes and serves them. On "close" its engine closes and the thread ends; an
 * engine that cannot start throws here, which ends the thread with that error.
 */

if (!parentPort) throw new Error("tick-thread-entry runs in a worker thread (tick-thread.ts)");
const port = parentPort;
const data = workerData as TickThreadData;
const send = (message: FromTickThread) => port.postMessage(message);

redirectMetrics((record) => send({ type: "metric", record }));
// Same level, redaction and bindings as the process's logger; the process writes the lines.
const { name, ...bindings } = data.logBindings;
const logger = createLogger(
  { level: data.logLevel, ...(typeof name === "string" ? { name } : {}) },
  { write: (line: string) => send({ type: "log", line }) },
).child({ ...bindings, tickThread: threadId });

const engine = await createEngine(data.config, {
  logger,
  ...(data.gatewayUrls ? { gatewayUrls: data.gatewayUrls } : {}),
  applicationName: "billing-tick-thread",
  // The process wrote them when it started; the thread is part of it.
  writeMerchantSettings: false,
});

port.on("message", (message: ToTickThread) => {
  if (message.type === "close") {
    engine
      .close()
      .catch((err: unknown) => logger.error({ err }, "closing the tick thread's engine failed"))
      .finally(() => port.close());
    return;
  }
  runTick(engine.ctx).then(
    (result) => send({ type: "done", result }),
    (error: unknown) => {
      const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
      send({ type: "failed", error: { name, message, ...(stack === undefined ? {} : { stack }) } });
    },
  );
});
