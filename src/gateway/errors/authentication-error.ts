import { GatewayRejectedError } from "./rejected-error.js";

/**
 * A rejection because of credentials (legacy -1 and -8, v1 401 and 403, a failed Authorize). It is
 * a configuration problem to alert on rather than a problem with one payment.
 */
export class GatewayAuthenticationError extends GatewayRejectedError {
  override name = "GatewayAuthenticationError";
}
