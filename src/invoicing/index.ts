/**
 * Gateway invoices: for charges that stay unpaid once dunning ends, and, when the merchant asks, a
 * paid one for every paid charge (GATEWAY_RECORD_PAID_INVOICES).
 */
export { InvoiceChargeNotFoundError } from "./charge-facts.js";
export { createInvoiceForCharge, type InvoiceOutcome } from "./create-invoice.js";
export { findInvoice, type InvoiceView, listInvoices } from "./invoice-reads.js";
export { type InvoiceFacts, invoiceRequestFor, itemDescription } from "./invoice-request.js";
export { type PaymentRecordCounts, sendPaymentRecords } from "./send-payment-records.js";
export { startInvoiceWorker } from "./worker.js";
