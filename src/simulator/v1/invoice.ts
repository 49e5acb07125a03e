import type { DateTime } from "luxon";
import type { StoredClient } from "./invoices-clients.js";
import type { Decimal } from "./invoices-decimal.js";
import type { INVOICE_STATUSES, PAYMENT_STATUSES, PAYMENT_TYPES } from "./invoices-schema.js";

/** A v1 invoice as the simulator keeps it. */
export interface InvoiceItem {
  readonly id: number;
  readonly productId: number | null;
  readonly description: string;
  readonly qty: Decimal;
  readonly amountMinor: number;
}

export interface InvoicePayment {
  readonly id: number;
  readonly paymentDate: DateTime;
  readonly transactionId: string;
  readonly amountMinor: number;
  readonly note: string;
  readonly paymentType: (typeof PAYMENT_TYPES)[number];
  readonly status: (typeof PAYMENT_STATUSES)[number];
}

export interface InvoiceSetting {
  readonly tax: boolean;
  /** Wire text: a percentage ("12.5") or money in the invoice currency ("5.00"). */
  readonly discount: string;
  readonly discountType: "percentage" | "fixed";
  readonly language: "ar" | "en";
  readonly acceptedPaymentMethods: Readonly<Record<PaymentMethod, boolean>>;
}

export type PaymentMethod = "card" | "bank_transfer" | "cash" | "wallet" | "e_signature";

export interface Invoice {
  readonly id: number;
  readonly merchantId: number;
  readonly number: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly termsConditions: string;
  readonly note: string | null;
  readonly date: DateTime;
  readonly status: (typeof INVOICE_STATUSES)[number];
  readonly type: "quick" | "detailed";
  readonly client: StoredClient | null;
  readonly title: string;
  readonly link: string;
  readonly description: string | null;
  readonly items: readonly InvoiceItem[];
  readonly payments: readonly InvoicePayment[];
  readonly setting: InvoiceSetting;
  readonly createdAt: DateTime;
}
