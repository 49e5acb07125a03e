import { GatewayError, type GatewayErrorInit } from "./gateway-error.js";

/**
 * The request itself was refused (bad or missing parameters, unsupported currency, void not
 * supported, v1 4xx) or was invalid before sending. Nothing happened; sending it again unchanged
 * gives the same answer.
 */
export class GatewayRejectedError extends GatewayError {
  override name = "GatewayRejectedError";

  constructor(init: GatewayErrorInit) {
    super(init, { retryable: false, outcomeUnknown: false });
  }
}
