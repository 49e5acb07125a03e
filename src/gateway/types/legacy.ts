import type { Money } from "../../money/index.js";
import type { GatewayMode } from "./common.js";

export type CardType = "credit" | "debit" | "both";
export type PaymentState = "SUCCESS" | "PENDING" | "FAILURE";

export interface AddTransactionInput {
  amount: Money;
  orderId: string;
  customerEmail: string;
  customerName?: string;
  customerPhone?: string;
  customerCountry?: string;
  lang?: "en" | "ar";
  note?: string;
  pushToken?: string;
  /** Marks a recurring payment; the success redirect then carries a card token. */
  isRecurring?: boolean;
  /** Saves the card (sent as autoSave=yes/no). */
  autoSave?: boolean;
  /** Return the money right after success and keep only the card token; needs isRecurring or autoSave. */
  isVoid?: boolean;
  cardType?: CardType;
}

export interface LegacyRefundInput {
  orderId: string;
  transactionId?: string;
}

export interface LegacyRefundResult {
  /** SUCCESS: returned by the bank now; Processing: returned in 2 to 4 weeks. */
  refundState: "SUCCESS" | "Processing";
  mode: GatewayMode;
  refundTransactionId: string;
}

export interface CheckStatusInput {
  orderId: string;
  transactionId?: string;
}

export interface ValidatePaymentInput {
  orderId: string;
}

/** A payment as check-status and validate-payment report it, amounts in minor units. */
export interface PaymentRecord {
  transactionId: string;
  amount: Money;
  paymentDate: string;
  state: PaymentState;
  authCode?: string;
  mode: GatewayMode;
  /** The saved-card token, when the payment asked for saving or recurrence. */
  cardToken: string | null;
  description?: string;
  refundState?: boolean;
  refundStatus?: string;
  refundDescription?: string;
  refundTransactionId?: string;
  customerEmail?: string;
  customerName?: string;
  customerPhone?: string;
  /** Exact decimal text of ExchangeRate (as received when sent as a string). */
  exchangeRate?: string;
  /** PaidAmount in the payment's currency, present only when it is exact there. */
  paidAmount?: Money;
  /** PaidAmount's decimal text as sent; its currency is not stated by the gateway. */
  paidAmountText?: string;
}

export type PaymentLookup = { found: false } | { found: true; payment: PaymentRecord };

export interface GetNewPaymentInput {
  cardToken: string;
  /** Unique per payment: required with an autosave token, our reference with a recurring one. */
  orderId?: string;
  /** Autosave tokens only; a recurring token implies its amount. */
  amount?: Money;
}

export interface GetNewPaymentResult {
  transactionId: string;
  authCode: string;
  mode: GatewayMode;
}

export interface StopRecurringInput {
  cardToken: string;
}
