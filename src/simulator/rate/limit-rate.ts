import type { FastifyReply } from "fastify";
import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import { v1Error } from "../v1/errors.js";

/**
 * The gate in front of every v1 and legacy v3 API call of an authenticated merchant (not the
 * hosted checkout pages, not /_sim): over the merchant's rate limit, the call is answered 429
 * before anything else happens, so no fault is taken, nothing is applied or recorded, and it does
 * not count in the window. Calls that name no merchant pass on to be refused by authentication.
 *
 * The body is the v1 error body on both interfaces. It is the spec's documented form for an error
 * told by HTTP status; the legacy form, `{result: <negative code>}`, has no code for this, and an
 * invented one would make a client that reads `result` first take it for an unknown outcome. A
 * legacy 5xx fault answers in the same form.
 */
export async function limitRate(
  core: SimulatorCore,
  merchant: MerchantAccount | undefined,
  reply: FastifyReply,
  run: () => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const refused = merchant && core.rates.admit(merchant);
  if (!refused) return run();
  const waitMs = Math.ceil(refused.retryAfterMs);
  const { status, body } = v1Error(
    429,
    `Too Many Requests: more than ${merchant.rateLimitPerSecond} calls in 1 second; retry in ${waitMs} ms`,
  );
  // Retry-After counts whole seconds, and 0 would invite an immediate retry that is refused again.
  return reply
    .code(status)
    .header("retry-after", String(Math.max(1, Math.ceil(waitMs / 1000))))
    .send(body);
}
