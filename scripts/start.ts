/**
 * `npm start`: the whole engine in one process (src/runtime). Needs no configuration on a
 * development machine: an embedded PostgreSQL under .data/, BullMQ on it, the gateway simulator
 * in-process and a controllable billing clock. Set DATABASE_URL, REDIS_URL and the GATEWAY_*
 * variables to use real services. SIGTERM or SIGINT stops it gracefully.
 */
import { createLogger } from "../src/logger/index.js";
import { gracefulShutdown } from "../src/queue/index.js";
import { describeEngineProcess, startEngineProcess } from "../src/runtime/index.js";

const logger = createLogger({ level: process.env.LOG_LEVEL || "info" });
try {
  const engine = await startEngineProcess({ logger });
  process.stdout.write(`${describeEngineProcess(engine).join("\n")}\n`);
  gracefulShutdown([engine], { logger, timeoutMs: engine.ctx.config.SHUTDOWN_TIMEOUT_MS });
} catch (error) {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
