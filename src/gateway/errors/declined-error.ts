import { GatewayError, type GatewayErrorInit } from "./gateway-error.js";

/**
 * The gateway processed the request and said no (GetnewPayment result 0). The answer is definite:
 * nothing was charged, and repeating the same request is a dunning decision, not a transport retry.
 */
export class GatewayDeclinedError extends GatewayError {
  override name = "GatewayDeclinedError";
  /** The gateway's transaction id for the declined attempt, when it sent one. */
  readonly transactionId?: string;

  constructor(init: GatewayErrorInit & { transactionId?: string }) {
    super(init, { retryable: false, outcomeUnknown: false });
    if (init.transactionId !== undefined) this.transactionId = init.transactionId;
  }
}
