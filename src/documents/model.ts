import type { DocumentSeries, RefundStatus } from "../billing/index.js";

/**
 * What a receipt or a credit note prints, read from the database once (load-receipt.ts,
 * load-credit-note.ts) and laid out by either renderer (html.ts, pdf.ts): plain data, amounts in
 * minor units of `currency`, times as instants shown on the customer's calendar (`timeZone`).
 */

export type DocumentLanguage = "en" | "ar" | "bilingual";

/** Who issues the document: from the merchant's configuration, handed in by the caller. */
export interface MerchantIdentity {
  name: string;
  /** Printed one under the other. */
  address: readonly string[];
  taxId: string | null;
  /** http(s) or a data: URL; the PDF embeds a PNG or JPEG data: URL only (it fetches nothing). */
  logoUrl: string | null;
}

/** One row of the document's table; deductions carry a negative amount, so the rows add up. */
export type DocumentLine =
  | {
      kind: "plan";
      planName: string;
      /** A plan change's own charge (its price difference), not a period's. */
      planChange: boolean;
      periodStart: Date;
      periodEnd: Date;
      amountMinor: number;
    }
  | {
      /** A line the charge stored (billing/charge-lines.ts): its plan at a quantity, an add-on, a one-off. */
      kind: "item";
      description: string;
      quantity: number;
      /** The period the line covers; null for a one-off. */
      periodStart: Date | null;
      periodEnd: Date | null;
      amountMinor: number;
    }
  | { kind: "discount"; couponPercent: number | null; amountMinor: number }
  | { kind: "credit"; amountMinor: number };

export interface DocumentTax {
  label: string;
  rateBp: number;
  /** Inside the total already: prices include tax. */
  includedMinor: number;
}

/** The payment the document is about: the one received, or for a credit note the one returned. */
export interface DocumentPayment {
  /** Known only for a saved card that recorded its digits. */
  cardLast4: string | null;
  /** Null for a charge of zero, settled without the gateway. */
  transactionId: string | null;
  paidAt: Date | null;
}

export interface DocumentRefund {
  refundedTransactionId: string;
  /** The gateway's id for the refund itself, once it answered. */
  refundTransactionId: string | null;
  /** The receipt of the charge whose payment is returned, when one was issued. */
  receiptNumber: string | null;
  status: RefundStatus;
}

export interface DocumentModel {
  kind: DocumentSeries;
  /** As printed: RCT-000042, CN-000007. */
  number: string;
  issuedAt: Date;
  /** IANA zone of every date on the document. */
  timeZone: string;
  currency: string;
  merchant: MerchantIdentity;
  customer: { name: string | null; email: string; language: "en" | "ar" };
  lines: DocumentLine[];
  /** The total less the tax included in it. */
  subtotalMinor: number;
  /** Null when the rate is 0: no tax line is printed. */
  tax: DocumentTax | null;
  /** Paid (receipt) or refunded (credit note). */
  totalMinor: number;
  payment: DocumentPayment;
  /** A credit note's refund; null on a receipt. */
  refund: DocumentRefund | null;
}
