import type { runTick } from "../app/index.js";
import type { Config } from "../config/index.js";
import type { MetricRecord } from "../metrics/index.js";

/**
 * What the process and its tick thread (tick-thread.ts, tick-thread-entry.ts) tell each other. All
 * of it is plain data, as postMessage copies it: the thread shares no object with the process.
 */

export type TickResult = Awaited<ReturnType<typeof runTick>>;

/** What the thread builds its engine from: the process's resolved settings, not its environment. */
export interface TickThreadData {
  /** With GATEWAY_API_KEY and DATABASE_URL as resolved (the simulator's key, the embedded database). */
  config: Config;
  /** The in-process simulator's address, reached over HTTP like any client. */
  gatewayUrls?: { baseUrl: string; legacyUrl: string };
  /** The process logger's level and bindings (its name among them: pino keeps it there). */
  logLevel: string;
  logBindings: Record<string, unknown>;
}

export type ToTickThread = { type: "tick" } | { type: "close" };

export type FromTickThread =
  | { type: "done"; result: TickResult }
  | { type: "failed"; error: { name: string; message: string; stack?: string } }
  | { type: "metric"; record: MetricRecord }
  | { type: "log"; line: string };
