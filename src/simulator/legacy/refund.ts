import type { SimulatorCore } from "../core.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import { refundPayment } from "../payments/refunds.js";
import type { SimReply } from "../types.js";
import { LegacyCode, legacyFailure, legacyMode, legacyOk } from "./codes.js";
import type { LegacyFields } from "./fields.js";

/**
 * POST /v3/Refund: refunds the latest successful payment of the orderId (transactionID narrows).
 * -10 without orderId; -2 when the order has no successful payment; -10 when it is already refunded
 * (an isVoid payment whose money came back counts as refunded).
 */
export function legacyRefund(core: SimulatorCore, merchant: MerchantAccount, fields: LegacyFields): SimReply {
  const orderId = fields.raw("orderId");
  if (orderId === undefined) return legacyFailure(LegacyCode.badRequest);
  const payment = core.payments.latestPaidForOrder(merchant.id, orderId, fields.get("transactionID"));
  if (!payment) return legacyFailure(LegacyCode.orderNotFound);
  if (payment.refund) return legacyFailure(LegacyCode.badRequest);
  const refund = refundPayment(core, payment, "Refund");
  return legacyOk({
    result: 1,
    refundState: refund.state,
    mode: legacyMode(payment.mode),
    refundTrnsactionId: refund.refundTransactionId,
  });
}
