import type { SimulatorCore } from "../core.js";
import type { Payment, Refund, RefundOperation } from "./payment.js";
import { legacyRefundIsDirect, v1RefundIsDirect } from "./settlement.js";

/** Refunds the whole payment; the window rules of the interface that was called decide the state. */
export function refundPayment(
  core: SimulatorCore,
  payment: Payment,
  operation: "Refund" | "refund_v1",
): Refund {
  const now = core.now();
  const direct = operation === "Refund" ? legacyRefundIsDirect(payment, now) : v1RefundIsDirect(payment, now);
  return record(
    core,
    payment,
    operation,
    direct ? "SUCCESS" : "Processing",
    direct ? "The bank returns the money directly" : "The bank returns the money within 2 to 4 weeks",
  );
}

/** The automatic return of money of an isVoid payment, right after it succeeded. */
export function voidPayment(core: SimulatorCore, payment: Payment, failure: string | undefined): Refund {
  return failure === undefined
    ? record(core, payment, "void", "SUCCESS", "Voided")
    : record(core, payment, "void", "FAILED", failure);
}

function record(
  core: SimulatorCore,
  payment: Payment,
  operation: RefundOperation,
  state: Refund["state"],
  description: string,
): Refund {
  const refund: Refund = {
    refundTransactionId: core.ids.transactionId(),
    transactionId: payment.transactionId,
    orderId: payment.orderId,
    merchantId: payment.merchantId,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    state,
    operation,
    description,
    createdAt: core.now(),
  };
  core.payments.addRefund(refund);
  if (state !== "FAILED") payment.refund = refund;
  return refund;
}
