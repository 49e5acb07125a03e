/**
 * Runs the gateway simulator standalone (`npm run gateway`): the v1 and v3 interfaces, the hosted
 * checkout page and /_sim/* on one port. Prints the URL and the default merchant's API key.
 *
 *   GATEWAY_SIM_PORT        port (default 4010; 0 picks a free one)
 *   GATEWAY_SIM_API_KEY     the default merchant's API key (a GUID); random when absent
 *   GATEWAY_SIM_HOST        interface to listen on (default 127.0.0.1)
 *   GATEWAY_SIM_PUBLIC_URL  address clients use, for checkout URLs (default the listening URL)
 *   GATEWAY_SIM_SEED        seed of ids, tokens and fault rolls (default random)
 *   GATEWAY_SIM_CLOCK       "running" (default: follows real time and can still be moved through
 *                           /_sim/clock) or "frozen" (stands still until moved)
 *   GATEWAY_SIM_STATE_FILE  a JSON file keeping the state across restarts (default: memory only)
 *   GATEWAY_SIM_RATE_LIMIT_PER_SECOND
 *                           API calls a merchant may make in any one second (real time), for
 *                           merchants created without a limit; beyond it, 429 (default: no limit)
 *   LOG_LEVEL               pino level (default info)
 */
import { z } from "zod";
import { ControllableClock } from "../src/clock/index.js";
import { explainListenError } from "../src/config/index.js";
import { createLogger } from "../src/logger/index.js";
import { StateFileError, startSimulator } from "../src/simulator/index.js";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const envSchema = z.object({
  GATEWAY_SIM_PORT: z.coerce.number().int().min(0).max(65_535).default(4010),
  GATEWAY_SIM_API_KEY: z.string().regex(GUID, "expected a GUID").optional(),
  GATEWAY_SIM_HOST: z.string().min(1).default("127.0.0.1"),
  GATEWAY_SIM_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  GATEWAY_SIM_SEED: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  GATEWAY_SIM_CLOCK: z.enum(["running", "frozen"]).default("running"),
  GATEWAY_SIM_STATE_FILE: z.string().min(1).optional(),
  GATEWAY_SIM_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

const cleaned = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ""));
const parsed = envSchema.safeParse(cleaned);
if (!parsed.success) {
  for (const issue of parsed.error.issues)
    process.stderr.write(`${String(issue.path[0])}: ${issue.message}\n`);
  process.exit(1);
}
const env = parsed.data;
// Chosen here rather than inside the simulator so it can be printed and a run repeated.
const seed = env.GATEWAY_SIM_SEED ?? Math.floor(Math.random() * 2 ** 32);
const logger = createLogger({ level: env.LOG_LEVEL, name: "gateway-simulator" });

const simulator = await startSimulator({
  port: env.GATEWAY_SIM_PORT,
  host: env.GATEWAY_SIM_HOST,
  defaultApiKey: env.GATEWAY_SIM_API_KEY,
  publicUrl: env.GATEWAY_SIM_PUBLIC_URL,
  seed,
  logger,
  clock: new ControllableClock(undefined, { running: env.GATEWAY_SIM_CLOCK === "running" }),
  stateFile: env.GATEWAY_SIM_STATE_FILE,
  rateLimitPerSecond: env.GATEWAY_SIM_RATE_LIMIT_PER_SECOND,
}).catch((error: unknown) => {
  // One line saying what to fix (a busy port, a bad state file), without a stack trace.
  const failure =
    error instanceof StateFileError
      ? new Error(`GATEWAY_SIM_STATE_FILE: ${error.message}`)
      : explainListenError(error, "GATEWAY_SIM_PORT", env.GATEWAY_SIM_PORT);
  process.stderr.write(`error: ${failure instanceof Error ? failure.message : String(failure)}\n`);
  process.exit(1);
});

// Written to stdout directly: the logger would redact the key, and scripts read these two lines.
process.stdout.write(`gateway simulator listening on ${simulator.url}\n`);
process.stdout.write(`default merchant api key: ${simulator.defaultApiKey}\n`);
process.stdout.write(`seed: ${seed}\n`);

const stop = async (signal: string) => {
  logger.info({ signal }, "stopping the gateway simulator");
  await simulator.close();
  process.exit(0);
};
process.once("SIGINT", () => void stop("SIGINT"));
process.once("SIGTERM", () => void stop("SIGTERM"));
