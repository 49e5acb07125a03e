import type { EngineContext } from "../context/index.js";
import {
  GatewayError,
  GatewayNotFoundError,
  GatewayUnavailableError,
  type PaymentLookup,
} from "../gateway/index.js";
import { PaymentVerificationUnavailableError } from "./errors.js";

/**
 * The gateway's own record of the payment of an order: CheckStatus, or ValidatePayment when
 * CheckStatus cannot be reached (the spec offers both; the client already retries each a few
 * times). Throws PaymentVerificationUnavailableError when neither answers.
 */
export async function verifyPayment(
  ctx: Pick<EngineContext, "gateway" | "logger">,
  orderId: string,
): Promise<PaymentLookup> {
  try {
    return await ctx.gateway.legacy.checkStatus({ orderId });
  } catch (error) {
    if (!(error instanceof GatewayUnavailableError)) throw verificationFailed(ctx, orderId, error);
    ctx.logger.warn({ err: error, orderId }, "CheckStatus unavailable; verifying with ValidatePayment");
  }
  try {
    return await ctx.gateway.legacy.validatePayment({ orderId });
  } catch (error) {
    // ValidatePayment answers an unknown order with -2 where CheckStatus answers result 0.
    if (error instanceof GatewayNotFoundError) return { found: false };
    throw verificationFailed(ctx, orderId, error);
  }
}

function verificationFailed(ctx: Pick<EngineContext, "logger">, orderId: string, error: unknown): Error {
  if (!(error instanceof GatewayError)) return error instanceof Error ? error : new Error(String(error));
  ctx.logger.error({ err: error, orderId }, "could not verify an enrollment payment with the gateway");
  return new PaymentVerificationUnavailableError(orderId, error);
}
