import { toDecimalString } from "../../money/index.js";
import type { Payment } from "../payments/payment.js";
import { legacyDateOf } from "../support/time.js";
import { legacyMode } from "./codes.js";

/**
 * The legacy Payment record with the spec's casing. Decimals are strings with the currency's
 * decimals; there is no currency conversion, so ExchangeRate is "1" and PaidAmount equals amount.
 * `auth` is "" unless the payment succeeded; `description` is the processing result.
 */
export function legacyPaymentRecord(payment: Payment) {
  const amount = toDecimalString(payment.amountMinor, payment.currency);
  const refund = payment.refund;
  return {
    transactionID: payment.transactionId,
    amount,
    currencyCode: payment.currency,
    customerEmail: payment.customer.email,
    customerPhone: payment.customer.phone,
    customerName: payment.customer.name,
    paymentDate: legacyDateOf(payment.createdAt),
    paymentstate: payment.status,
    auth: payment.authCode ?? "",
    mode: legacyMode(payment.mode),
    ExchangeRate: "1",
    PaidAmount: amount,
    token: payment.cardToken,
    description: payment.description,
    refundState: refund !== null,
    refundstatus: refund?.state ?? null,
    refundDescription: refund?.description ?? null,
    refundTransactionId: refund?.refundTransactionId ?? null,
  };
}
