import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";

type KeyRequest = FastifyRequest<{ Params: { api_key: string } }>;

/** A merchant's rate counters as /_sim shows them (snake_case). */
function rateView(core: SimulatorCore, merchant: MerchantAccount) {
  const counters = core.rates.counters(merchant);
  return {
    api_key: merchant.apiKey,
    rate_limit_per_second: counters.rateLimitPerSecond,
    accepted: counters.accepted,
    refused: counters.refused,
    max_in_window: counters.maxInWindow,
  };
}

/**
 * Simulator-only: a merchant's API calls since its counters were reset (accepted, refused with
 * 429, and the most accepted in any one second), for tests and benchmarks of a client's pacing.
 */
export function registerRateRoutes(app: FastifyInstance, core: SimulatorCore): void {
  app.get("/_sim/merchants/:api_key/rate", (request: KeyRequest, reply) => {
    const merchant = core.merchants.find(request.params.api_key);
    return merchant ? rateView(core, merchant) : reply.code(404).send({ error: "unknown api_key" });
  });

  // Zeroes the counters; calls still in the window keep limiting, so a reset never lets a burst through.
  app.post("/_sim/merchants/:api_key/rate/reset", (request: KeyRequest, reply) => {
    const merchant = core.merchants.find(request.params.api_key);
    if (!merchant) return reply.code(404).send({ error: "unknown api_key" });
    core.rates.resetCounters(merchant);
    return rateView(core, merchant);
  });
}
