import { GatewayError, type GatewayErrorInit } from "./gateway-error.js";

/**
 * The gateway processed the request and said no: GetnewPayment result 0 in the documented shape,
 * with the declined payment's transaction id and a description (factory.ts; a result 0 without
 * them is an unknown outcome instead). The answer is definite: nothing was charged, and repeating
 * the same request is a dunning decision, not a transport retry.
 */
export class GatewayDeclinedError extends GatewayError {
  override name = "GatewayDeclinedError";
  /** The gateway's transaction id for the declined payment: what makes the decline provable. */
  readonly transactionId: string;

  constructor(init: GatewayErrorInit & { transactionId: string }) {
    super(init, { retryable: false, outcomeUnknown: false });
    this.transactionId = init.transactionId;
  }
}
