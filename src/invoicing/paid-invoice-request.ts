import type { DateTime } from "luxon";
import type { InvoiceRequest } from "../gateway/index.js";
import { type InvoiceFacts, invoiceRequestFor } from "./invoice-request.js";

/**
 * A paid charge as the merchant's gateway account shows it (GATEWAY_RECORD_PAID_INVOICES): the
 * detailed invoice of invoice-request.ts, whose total is the charge's amount to the minor unit, in
 * status `paid` with the one payment that paid it, as the spec requires of a paid invoice. Rules:
 * - its number is our receipt's (RCT-000042): the customer's receipt and the gateway's invoice
 *   name each other, and the gateway refuses a number twice, so a retry after a lost reply can
 *   never make a second invoice for one payment;
 * - the payment is the gateway transaction that paid the charge, for the charge's amount, by card
 *   (payment_type credit), paid when the charge was.
 */
export interface PaymentFacts {
  /** The receipt's printed number. */
  receiptNumber: string;
  transactionId: string;
  paidAt: DateTime;
}

export function paidInvoiceRequestFor(facts: InvoiceFacts, payment: PaymentFacts): InvoiceRequest {
  return {
    ...invoiceRequestFor(facts),
    status: "paid",
    number: payment.receiptNumber,
    payments: [
      {
        paymentDate: payment.paidAt,
        transactionId: payment.transactionId,
        amount: { minor: facts.amountMinor, currency: facts.currency },
        paymentType: "credit",
        status: "paid",
      },
    ],
  };
}
