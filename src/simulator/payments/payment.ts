import { toDecimalString } from "../../money/index.js";
import { isoOf } from "../support/time.js";

export type PaymentStatus = "PENDING" | "SUCCESS" | "FAILURE";
/** The API operation that made the payment. */
export type PaymentOperation = "checkout" | "AddTransaction" | "GetnewPayment";
export type RefundState = "SUCCESS" | "Processing" | "FAILED";
export type RefundOperation = "Refund" | "refund_v1" | "void";

export interface Customer {
  email: string | null;
  name: string | null;
  phone: string | null;
}

export interface Refund {
  refundTransactionId: string;
  transactionId: string;
  orderId: string | null;
  merchantId: number;
  amountMinor: number;
  currency: string;
  /** FAILED only for an isVoid return of money that the card refused; no money moved then. */
  state: RefundState;
  operation: RefundOperation;
  description: string;
  createdAt: number;
}

/**
 * One payment attempt. A checkout's payment exists from the moment the checkout is created, as
 * PENDING, so CheckStatus can report it; it becomes SUCCESS or FAILURE when the card is processed.
 */
export interface Payment {
  transactionId: string;
  merchantId: number;
  mode: "test" | "live";
  orderId: string | null;
  operation: PaymentOperation;
  amountMinor: number;
  currency: string;
  status: PaymentStatus;
  description: string;
  responseCode: string | null;
  authCode: string | null;
  cardToken: string | null;
  cardLast4: string | null;
  customer: Customer;
  openedAt: number;
  /** When processing ended (equals openedAt while PENDING). */
  createdAt: number;
  /** The settlement cutoff that settles it, or null for a merchant that never settles. */
  settlesAt: number | null;
  refund: Refund | null;
}

export function isSettled(payment: Payment, now: number): boolean {
  return payment.status === "SUCCESS" && payment.settlesAt !== null && now >= payment.settlesAt;
}

export function paymentLedgerView(payment: Payment, now: number) {
  return {
    transaction_id: payment.transactionId,
    order_id: payment.orderId,
    merchant_id: payment.merchantId,
    operation: payment.operation,
    amount: toDecimalString(payment.amountMinor, payment.currency),
    currency: payment.currency,
    status: payment.status,
    description: payment.description,
    response_code: payment.responseCode,
    auth_code: payment.authCode,
    card_token: payment.cardToken,
    card_last4: payment.cardLast4,
    mode: payment.mode,
    created_at: isoOf(payment.createdAt),
    settles_at: payment.settlesAt === null ? null : isoOf(payment.settlesAt),
    settled: isSettled(payment, now),
    refunded: payment.refund !== null,
    refund_transaction_id: payment.refund?.refundTransactionId ?? null,
  };
}

export function refundLedgerView(refund: Refund) {
  return {
    refund_transaction_id: refund.refundTransactionId,
    transaction_id: refund.transactionId,
    order_id: refund.orderId,
    merchant_id: refund.merchantId,
    amount: toDecimalString(refund.amountMinor, refund.currency),
    currency: refund.currency,
    state: refund.state,
    operation: refund.operation,
    description: refund.description,
    created_at: isoOf(refund.createdAt),
  };
}
