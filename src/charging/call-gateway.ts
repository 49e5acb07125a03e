import type { EngineContext } from "../context/index.js";
import type { Money } from "../money/index.js";
import { type GatewayReport, reportFromError, reportFromReply } from "./gateway-report.js";

/**
 * Sends one GetnewPayment for an attempt that is already recorded and committed, and says what the
 * gateway answered. No database access and never a throw: the caller records the report.
 *
 * Every call carries the attempt's orderId, recurring tokens included, because it is the only handle
 * CheckStatus (and a later Refund) has on the payment: without it an unknown outcome could never be
 * reconciled. The amount goes only with an autosave token: a recurring token implies the amount it
 * was enrolled for, and the gateway's recurring collection takes none.
 */
export interface GatewayCharge {
  readonly cardToken: string;
  readonly kind: "recurring" | "autosave";
  readonly orderId: string;
  readonly amount: Money;
}

export async function callGateway(
  ctx: Pick<EngineContext, "gateway">,
  charge: GatewayCharge,
): Promise<GatewayReport> {
  try {
    const reply = await ctx.gateway.legacy.getNewPayment({
      cardToken: charge.cardToken,
      orderId: charge.orderId,
      ...(charge.kind === "autosave" ? { amount: charge.amount } : {}),
    });
    return reportFromReply(reply);
  } catch (error) {
    return reportFromError(error);
  }
}
