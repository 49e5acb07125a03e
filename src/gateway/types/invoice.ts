import type { DateTime } from "luxon";
import type { Money } from "../../money/index.js";

export type InvoiceStatus = "sent" | "paid" | "void" | "refund";
export type InvoicePaymentStatus = "paid" | "active" | "refund";

export interface InvoiceClientInput {
  id?: number;
  name?: string;
  email: string;
  phone?: string;
  address?: string;
}

export interface InvoiceItemInput {
  productId?: string;
  description: string;
  /** A quantity, not money: a non-negative decimal. */
  qty?: number | string;
  amount: Money;
}

export interface InvoicePaymentInput {
  paymentDate: string | DateTime;
  transactionId?: string;
  amount: Money;
  note?: string;
  /** For example credit, cash or wallet; the gateway defaults to cash. */
  paymentType?: string;
  status?: InvoicePaymentStatus;
}

export type InvoiceDiscount = { type: "percentage"; percent: number } | { type: "fixed"; amount: Money };

export interface AcceptedPaymentMethods {
  card?: boolean;
  bankTransfer?: boolean;
  cash?: boolean;
  wallet?: boolean;
  eSignature?: boolean;
}

export interface InvoiceSettingInput {
  tax?: boolean;
  discount?: InvoiceDiscount;
  language?: "ar" | "en";
  acceptedPaymentMethods?: AcceptedPaymentMethods;
}

/**
 * A quick invoice (description + amount) or a detailed one (items). The invoice currency is the
 * currency of its Money values, which must all agree.
 */
export interface InvoiceRequest {
  description?: string;
  amount?: Money;
  items?: InvoiceItemInput[];
  date?: string | DateTime;
  status?: InvoiceStatus;
  number?: string;
  client?: InvoiceClientInput;
  note?: string;
  type?: "detailed";
  termsConditions?: string;
  /** Required for status paid or refund; refused for sent (the default) and void. */
  payments?: InvoicePaymentInput[];
  setting?: InvoiceSettingInput;
  title?: string;
}

export interface InvoiceClient {
  id?: number;
  name?: string;
  email?: string;
  phone?: string;
  address?: string;
  notes?: string;
}

export interface InvoiceItem {
  id?: number;
  productId?: number;
  description: string;
  type?: string;
  qty?: string;
  amount: Money;
}

export interface InvoicePayment {
  id?: number;
  paymentDate: string;
  transactionId?: string;
  amount: Money;
  note?: string;
  /** Lower-cased (responses capitalise it). */
  paymentType?: string;
  status?: string;
}

export interface InvoiceSetting {
  tax?: boolean;
  discount?: InvoiceDiscount;
  language?: string;
  acceptedPaymentMethods?: AcceptedPaymentMethods;
}

export interface Invoice {
  id: number;
  number?: string;
  amount?: Money;
  currency: string;
  termsConditions?: string;
  note?: string;
  date?: string;
  /** Lower-cased. */
  status?: string;
  type?: string;
  client?: InvoiceClient;
  title?: string;
  link?: string;
  description?: string;
  items: InvoiceItem[];
  payments: InvoicePayment[];
  setting?: InvoiceSetting;
}
