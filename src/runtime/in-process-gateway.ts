import path from "node:path";
import type { Clock } from "../clock/index.js";
import type { Config } from "../config/index.js";
import { type EngineContext, refreshClock } from "../context/index.js";
import { gatewayCallbackUrls } from "../enrollment/index.js";
import { findFreePort } from "../infra/index.js";
import type { Logger } from "../logger/index.js";
import { type RunningSimulator, startSimulator } from "../simulator/index.js";
import { readLiveRuntime } from "./runtime-file.js";

/**
 * The gateway simulator run inside the engine's process when no gateway is configured. Its default
 * merchant is the engine's merchant account: its API key is GATEWAY_SIM_API_KEY or
 * GATEWAY_API_KEY when set, else the one its state file holds, else a fresh one; its success,
 * failure and webhook URLs are our callback URLs.
 *
 * Its state (merchants, card tokens, payments, invoices, ids) is kept in `<data dir>/gateway-sim.json`
 * beside the embedded database (the simulator's state file, src/simulator/README.md), so cards
 * saved before a restart can still be charged after it: written within 250 ms of a change, on
 * shutdown and when the process exits. Only a kill (SIGKILL) or a power loss can lose the changes
 * of those last 250 ms.
 */
export const SIMULATOR_STATE_FILE = "gateway-sim.json";

/**
 * The state file, unless another live engine registered in the data directory's runtime.json runs
 * its own simulator on it (an engine on another DATABASE_URL): two writers would undo each other's
 * saves, so this simulator then keeps its state in memory.
 */
async function stateFileIn(dataDir: string, logger: Logger): Promise<string | undefined> {
  const other = await readLiveRuntime(dataDir);
  if (other && other.pid !== process.pid && other.gateway !== null) {
    logger.warn(
      { pid: other.pid, dataDir },
      "another engine keeps its simulator's state in this data directory; this simulator's state stays in memory",
    );
    return undefined;
  }
  return path.join(dataDir, SIMULATOR_STATE_FILE);
}

export async function startInProcessGateway(
  config: Config,
  dataDir: string,
  logger: Logger,
): Promise<RunningSimulator> {
  const stateFile = await stateFileIn(dataDir, logger);
  return startSimulator({
    port: await findFreePort(config.GATEWAY_SIM_PORT),
    defaultApiKey: config.GATEWAY_SIM_API_KEY ?? config.GATEWAY_API_KEY,
    logger: logger.child({ component: "gateway-simulator" }),
    ...(stateFile === undefined ? {} : { stateFile }),
  });
}

/**
 * Keeps the simulator's invoice ids above every gateway invoice id the engine holds (unique in
 * `invoices`): when its state file was lost, or a kill lost its last changes, its counter would
 * otherwise hand out ids the engine already has.
 */
export async function keepInvoiceIdsAhead(simulator: RunningSimulator, ctx: EngineContext): Promise<void> {
  const [row] = await ctx.db.$client<{ highest: number | null }[]>`
    select max(gateway_invoice_id) as highest from invoices`;
  if (row?.highest != null) simulator.skipInvoiceIdsThrough(row.highest);
}

/** Points the simulator's default merchant at our callback URLs, as a merchant does in its account. */
export async function configureMerchant(simulator: RunningSimulator, publicUrl: string): Promise<void> {
  const urls = gatewayCallbackUrls(publicUrl);
  const response = await fetch(`${simulator.url}/_sim/merchants/${simulator.defaultApiKey}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      success_url: urls.successUrl,
      failure_url: urls.failureUrl,
      webhook_url: urls.webhookUrl,
    }),
  });
  if (!response.ok) {
    throw new Error(`the simulator refused our callback URLs (${response.status}): ${await response.text()}`);
  }
}

/** How often the simulator's clock catches up with a billing clock moved by another process. */
const FOLLOW_EVERY_MS = 1_000;

/**
 * Keeps the simulator's clock on the engine's billing clock: a controllable clock moved by the CLI
 * or another process is seen on the next refresh, and the system clock moves on its own. Returns
 * the function that stops following.
 */
export function followClock(clock: Clock, simulator: RunningSimulator, logger: Logger): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    refreshClock(clock)
      .then((now) => simulator.clock.set(now))
      .catch((err: unknown) => logger.warn({ err }, "could not read the billing clock for the simulator"))
      .finally(() => {
        running = false;
      });
  }, FOLLOW_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
