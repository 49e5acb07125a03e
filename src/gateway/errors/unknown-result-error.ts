import { GatewayError, type GatewayErrorInit } from "./gateway-error.js";

/**
 * A legacy result code the specification does not explain (for example -6), or one whose reply lacks
 * what the specification says it carries (a GetnewPayment result 0 without transactionid and
 * description). Its number and text are kept. As its meaning is unknown, a money-moving call that
 * got one has an unknown outcome.
 */
export class GatewayUnknownResultError extends GatewayError {
  override name = "GatewayUnknownResultError";

  constructor(init: GatewayErrorInit & { outcomeUnknown: boolean }) {
    super(init, { retryable: false, outcomeUnknown: init.outcomeUnknown });
  }
}
