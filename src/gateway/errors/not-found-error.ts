import { GatewayError, type GatewayErrorInit } from "./gateway-error.js";

/**
 * The thing the request names does not exist (legacy -2 unknown orderId, -7 no recurring or autosave
 * payment for the card token, v1 404). Check-status "not found" is a value, not this error.
 */
export class GatewayNotFoundError extends GatewayError {
  override name = "GatewayNotFoundError";

  constructor(init: GatewayErrorInit) {
    super(init, { retryable: false, outcomeUnknown: false });
  }
}
