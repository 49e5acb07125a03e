import { GatewayError, type GatewayErrorInit } from "./gateway-error.js";

/**
 * No usable answer: network failure, timeout, 5xx, or a reply that cannot be read. Trying again
 * later may work, but for a money-moving call the first attempt may have been carried out, so
 * `outcomeUnknown` is set and the caller must reconcile (check status) before repeating it.
 */
export class GatewayUnavailableError extends GatewayError {
  override name = "GatewayUnavailableError";

  constructor(init: GatewayErrorInit & { outcomeUnknown: boolean }) {
    super(init, { retryable: true, outcomeUnknown: init.outcomeUnknown });
  }
}
