import type { Clock } from "../clock/index.js";
import type { Config } from "../config/index.js";
import { refreshClock } from "../context/index.js";
import { gatewayCallbackUrls } from "../http/index.js";
import { findFreePort } from "../infra/index.js";
import type { Logger } from "../logger/index.js";
import { type RunningSimulator, startSimulator } from "../simulator/index.js";

/**
 * The gateway simulator run inside the engine's process when no gateway is configured. Its default
 * merchant is the engine's merchant account: its API key is GATEWAY_SIM_API_KEY or
 * GATEWAY_API_KEY when set (else a fresh one), and its success, failure and webhook URLs are our
 * callback URLs. Its state lives in memory: restarting the engine forgets the cards it saved, so
 * subscriptions started before a restart cannot be charged afterwards (enroll them again).
 */
export async function startInProcessGateway(config: Config, logger: Logger): Promise<RunningSimulator> {
  return startSimulator({
    port: await findFreePort(config.GATEWAY_SIM_PORT),
    defaultApiKey: config.GATEWAY_SIM_API_KEY ?? config.GATEWAY_API_KEY,
    logger: logger.child({ component: "gateway-simulator" }),
  });
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
